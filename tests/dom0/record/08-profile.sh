# xen-dyntrace profile: Xen's function profiler from dom0.
# - profile -l FILTER -- COMMAND: counts while COMMAND runs (5 reads of version/extra: 5 hits of
#   xen_extra_version, by function and by domain, d0), returns its exit status, puts the filter
#   back and leaves the profiler off; -s sorts (hit: the most first; name; -r reversed).
# - -t SECONDS; --start (filters kept, counting), --show (changes nothing), --stop.
# - usage errors exit 2 and change nothing; a filter Xen refuses: exit 1, nothing changed.
. /opt/dyntrace/tests/lib.sh
needs_series 3 function_profile_enabled
reset_tracing
extra=/sys/hypervisor/version/extra
save_settings /tmp/settings.before

xen-dyntrace profile -l 'do_xen_version xen_extra_version' -s hit -- \
    sh -c "for i in 1 2 3 4 5; do cat $extra >/dev/null; done; exit 3" >/tmp/prof.out 2>/tmp/prof.err
rc=$?
cat /tmp/prof.out /tmp/prof.err
expect_eq "profile's exit status (the command's)" 3 "$rc"
row=$(grep '^  xen_extra_version ' /tmp/prof.out) || fail "no xen_extra_version row"
expect_eq "hits of xen_extra_version" 5 "$(echo "$row" | awk '{print $2}')"
hits=$(grep '^  do_xen_version ' /tmp/prof.out | awk '{print $2}')
[ "${hits:-0}" -ge 5 ] || fail "do_xen_version: $hits hits, fewer than 5"
grep -q '^# profile by function: ' /tmp/prof.out || fail "no header"
# -s hit: the most hits first.
first=$(sed -n '/^  --------/{n;p;}' /tmp/prof.out | awk '{print $1}')
[ "$hits" -gt 5 ] && expect_eq "first row by hit" do_xen_version "$first"
save_settings /tmp/settings.after
cmp -s /tmp/settings.before /tmp/settings.after || {
    diff /tmp/settings.before /tmp/settings.after; fail "profile did not put the settings back"; }

# What was counted stays readable: --show by domain and by name, reversed.
xen-dyntrace profile --show --by domain >/tmp/prof.out || fail "profile --show --by domain exited $?"
cat /tmp/prof.out
grep -q '^  d0  *xen_extra_version  *5 ' /tmp/prof.out || fail "--by domain: no 'd0 xen_extra_version 5'"
xen-dyntrace profile --show -s name -r >/tmp/prof.out || fail "profile --show -s name -r exited $?"
expect_eq "first row by name, reversed" xen_extra_version "$(sed -n '/^  --------/{n;p;}' /tmp/prof.out | awk '{print $1}')"
xen-dyntrace profile --show --by cpu >/tmp/prof.out || fail "profile --show --by cpu exited $?"
grep -q '^# profiler: off, CPU [0-9]' /tmp/prof.out || { cat /tmp/prof.out; fail "--by cpu: no CPU table"; }

# --start, reads, --show (counting), --stop.
xen-dyntrace profile --start -l xen_extra_version >/tmp/prof.out || fail "profile --start exited $?"
expect_eq "function_profile_enabled after --start" 1 "$(xenhypfs cat $T/function_profile_enabled)"
expect_eq "the filter after --start" xen_extra_version "$(xenhypfs cat $T/set_function_filter)"
cat $extra >/dev/null
cat $extra >/dev/null
xen-dyntrace profile --show >/tmp/prof.out || fail "profile --show exited $?"
grep -q '^  xen_extra_version  *2 ' /tmp/prof.out || { cat /tmp/prof.out; fail "--show while counting: not 2 hits"; }
expect_eq "function_profile_enabled after --show" 1 "$(xenhypfs cat $T/function_profile_enabled)"
# While it counts, another run or --start is refused: its counts are not theirs to clear.
xen-dyntrace profile -t 1 >/dev/null 2>/tmp/prof.err
expect_eq "profile while the profiler counts: exit status" 1 "$?"
grep -q 'the profiler is counting already' /tmp/prof.err || fail "no message for a profiler counting already"
cat $extra >/dev/null
xen-dyntrace profile --stop >/tmp/prof.out || fail "profile --stop exited $?"
cat /tmp/prof.out
grep -q '^  xen_extra_version  *3 ' /tmp/prof.out || fail "--stop: not 3 hits"
expect_eq "function_profile_enabled after --stop" 0 "$(xenhypfs cat $T/function_profile_enabled)"
reset_tracing

# -t SECONDS.
xen-dyntrace profile -l xen_extra_version -t 1 >/tmp/prof.out || fail "profile -t 1 exited $?"
grep -q '^  --------' /tmp/prof.out || fail "profile -t 1 printed no table"

# Usage errors and a refused filter: nothing changed.
save_settings /tmp/settings.before
for args in "-s nosuch" "--by nosuch" "-t 0" "--show -l x" "--start -- true" "-t 1 -- true"; do
    xen-dyntrace profile $args >/dev/null 2>&1
    expect_eq "exit status of 'profile $args'" 2 "$?"
done
xen-dyntrace profile -d d1 -l no_such_function -t 1 >/tmp/prof.out 2>&1
rc=$?
cat /tmp/prof.out
expect_eq "exit status of profile with an unknown function" 1 "$rc"
save_settings /tmp/settings.after
grep -v '^error_log=' /tmp/settings.before >/tmp/s.b
grep -v '^error_log=' /tmp/settings.after >/tmp/s.a
cmp -s /tmp/s.b /tmp/s.a || { diff /tmp/s.b /tmp/s.a; fail "a refused profile changed a setting"; }
reset_tracing
