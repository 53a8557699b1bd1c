# The profiler under the FLASK policy (tracer/27): function_profile_enabled needs the livepatch
# permission too.
. /opt/dyntrace/tests/tracer/27-function-profiler.sh
