# xen-dyntrace: ftrace-style dynamic function tracing for Xen.
# `make demo` and `make check` do all setup themselves (Debian 12, root).
# XEN_BASE=4.20|4.17|staging selects the Xen (default: 4.20 when XEN_TARBALL or
# XEN_SRC provides it, else 4.17); see README.md. CLANG=1 builds the x86_64
# hypervisor and its livepatch test payloads with clang (in build/BASE-clang/).

ARCH ?= x86_64
SMP ?= 2
export SMP

.PHONY: all demo check bench deb deps source prepare build image boot shell patches series-check host-tests clean distclean

all: build

demo:
	scripts/demo.sh $(ARCH)

check:
	scripts/check.sh

# Benchmarks (not part of check): per-call and patching costs, against xentrace.
bench:
	scripts/bench.sh $(ARCH)

# Debian 13 packages of 4.20 (xen-dyntrace, the hypervisor with the tracer and its -dbg) for
# DEB_ARCHES, into build/4.20/deb/; XEN_SRC=<your 4.20 tree> builds the hypervisor from it.
DEB_ARCHES ?= x86_64 arm64
deb: deps
	for a in $(DEB_ARCHES); do XEN_BASE=4.20 scripts/build-xen.sh $$a && XEN_BASE=4.20 scripts/make-deb.sh $$a || exit 1; done

deps:
	scripts/install-host-deps.sh

source: deps
	scripts/fetch-xen-source.sh

prepare: deps
	scripts/prepare-tree.sh $(ARCH)

build: deps
	scripts/build-xen.sh $(ARCH)

image: build
	scripts/make-initramfs.sh $(ARCH)

# Boot and run one dom0 suite: make boot SUITE=smoke [ARCH=arm64]
boot: image
	tests/run-dom0-suite.sh $(ARCH) $(SUITE)

shell: image
	scripts/boot.sh $(ARCH) shell

# The mailed series in order (git format-patch, each with its cover letter) against the pristine
# base, in build/patches-out/BASE/N/; SERIES=N stops after series N.
patches: deps
	scripts/patches.sh

# Build x86_64 and arm64 after every patch of the series.
series-check: deps
	scripts/series-check.sh

host-tests:
	SUITES=host BASES=none scripts/check.sh

clean:
	rm -rf build

# Also drop the download cache.
distclean: clean
	rm -rf $${XEN_DYNTRACE_CACHE:-/var/cache/xen-dyntrace}
