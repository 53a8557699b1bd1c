# The RFC's session (tracer/01) on the installed hypervisor.
. /opt/dyntrace/tests/tracer/01-rfc-session.sh
