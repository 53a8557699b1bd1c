# A patch change while another is in progress is refused with EBUSY and
# nothing else: two writers switch the tracer back and forth at once (retried
# until their writes overlap, at most 20 times).
. /opt/dyntrace/tests/lib.sh
# On one pCPU a patch operation (a continuation on CPU 0) runs to its end before the other
# writer's vCPU gets the CPU again: the writes never overlap (make check boots the tracer suite
# of the bases beyond 4.20 on one pCPU; 4.20's runs on two).
cpus=$(xen_cpus) || fail "$cpus"
[ "$cpus" -ge 2 ] || skip "one pCPU: two patch operations cannot overlap"
reset_tracing
run xenhypfs write $T/set_function_filter xen_extra_version
busy=0
round=0
while [ "$busy" -eq 0 ] && [ $round -lt 20 ]; do
    round=$((round + 1))
    hypfs-raw write $T/current_tracer 66756e6374696f6e00 1000 >/tmp/a &   # "function"
    hypfs-raw write $T/current_tracer 6e6f7000 1000 >/tmp/b               # "nop"
    wait
    cat /tmp/a /tmp/b
    grep -q "other=0" /tmp/a && grep -q "other=0" /tmp/b || fail "errors other than EBUSY"
    busy=$(cat /tmp/a /tmp/b | sed -n 's/.*EBUSY=\([0-9]*\).*/\1/p' | awk '{s += $1} END {print s}')
done
echo "EBUSY seen $busy times in round $round"
[ "$busy" -gt 0 ] || fail "no EBUSY seen"
t=$(xenhypfs cat $T/current_tracer)
case "$t" in nop | function) ;; *) fail "current_tracer '$t'" ;; esac
reset_tracing
