# shellcheck shell=bash
# Sourced by the tests/host/test-*-model scripts of models with one scenario and -DBROKEN_*
# variants. spin_variants NAME MODEL OUT CORRECT BROKEN: the model as it is and under each -DFLAG
# of CORRECT (space-separated) must verify with no error and a complete search; under each -DFLAG
# of BROKEN it must give a counterexample (an assertion violated). Prints the TAP plan and lines;
# returns 1 if any check failed. CC picks the compiler of pan.
spin_variants() {
    local name=$1 model=$2 out=$3 correct broken n=0 bad=0 v
    read -r -a correct <<<"$4"
    read -r -a broken <<<"$5"
    echo "1..$((1 + ${#correct[@]} + ${#broken[@]}))"
    if ! command -v spin >/dev/null; then
        for _ in $(seq 1 $((1 + ${#correct[@]} + ${#broken[@]}))); do
            n=$((n + 1))
            echo "not ok $n - spin is not installed (scripts/install-host-deps.sh installs it)"
        done
        return 1
    fi
    for v in "" "${correct[@]}" "${broken[@]}"; do
        local dir=$out/${v:-correct} label="$name model${v:+ -D$v}"
        n=$((n + 1))
        rm -rf "$dir" && mkdir -p "$dir"
        (cd "$dir" && spin -a ${v:+"-D$v"} "$model" >spin.log 2>&1 &&
            "${CC:-gcc}" -O0 -w -DMEMLIM=512 -o pan pan.c >cc.log 2>&1 &&
            timeout 120 ./pan -m100000 >pan.log 2>&1) || true
        touch "$dir/pan.log"
        grep -E 'assertion violated|errors:|states, stored' "$dir/pan.log" | sed 's/^/#   /' || true
        if [[ " ${broken[*]} " == *" $v "* && -n $v ]]; then
            if grep -q 'assertion violated' "$dir/pan.log"; then
                echo "ok $n - $label: counterexample found"
            else
                echo "not ok $n - $label: no counterexample (log $dir/pan.log)"
                bad=1
            fi
        elif grep -q 'errors: 0$' "$dir/pan.log" &&
            ! grep -q 'search not completed\|max search depth too small' "$dir/pan.log"; then
            echo "ok $n - $label: $(sed -nE 's/^ *([0-9e.+]+) states, stored.*/\1/p' "$dir/pan.log") states, no error"
        else
            echo "not ok $n - $label: errors or incomplete search (log $dir/pan.log)"
            bad=1
        fi
    done
    return $bad
}
