# dom0 traces under the FLASK policy as without it: the RFC's session (tracer/01), whose
# writes to set_function_filter and current_tracer pass the livepatch permission check
# (dom0_t has xen2:livepatch_op).
. /opt/dyntrace/tests/tracer/01-rfc-session.sh
