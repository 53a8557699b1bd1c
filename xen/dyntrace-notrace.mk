# Objects built without patchable function entries: they can never be traced.
# Paths are relative to xen/; % is a wildcard.  See docs/design.md ("notrace").
#
# The tracer itself and everything its callback runs.
DYNTRACE_NOTRACE := common/dyntrace/% arch/$(SRCARCH)/dyntrace.o
# The livepatch rendezvous and the text-patching path.
DYNTRACE_NOTRACE += common/livepatch.o common/livepatch_elf.o
DYNTRACE_NOTRACE += common/virtual_region.o common/stop_machine.o
DYNTRACE_NOTRACE += arch/$(SRCARCH)/livepatch.o arch/$(SRCARCH)/alternative.o
# Time: NOW() is read by the callback.
DYNTRACE_NOTRACE += arch/$(SRCARCH)/time.o
# CPU bring-up: runs before the CPU's identity and per-CPU state are valid.
DYNTRACE_NOTRACE += arch/$(SRCARCH)/smpboot.o arch/$(SRCARCH)/percpu.o
# x86: NMI and machine-check entry (code before nmi_enter() cannot know it is
# in NMI context), TLB flushing used by the patcher, string helpers.
DYNTRACE_NOTRACE += arch/x86/traps.o arch/x86/nmi.o arch/x86/cpu/mcheck/%
DYNTRACE_NOTRACE += arch/x86/flushtlb.o arch/x86/string.o arch/x86/cpu/common.o
# Arm: the writable alias and instruction encoding used by the patcher,
# secondary CPU bring-up, and the arm64 library (bit operations are out of
# line there).
DYNTRACE_NOTRACE += arch/arm/arm64/livepatch.o arch/arm/arm64/insn.o
DYNTRACE_NOTRACE += arch/arm/arm64/smpboot.o arch/arm/arm64/lib/%
