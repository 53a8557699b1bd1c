/* SPDX-License-Identifier: MIT */
/*
 * dyntrace_events.h
 *
 * Xen's trace points (the TRC_* events of public/trace.h) as the dynamic
 * tracer records them (/tracing/events/), and the one table of their names
 * and text formats that the hypervisor's text (trace, trace_pipe) and the
 * dom0 tool both print from.
 *
 * An event is kept as a record of public/dyntrace.h's layout with
 * XEN_DYNTRACE_FLAG_EVENT in flags (struct xen_dyntrace_event): its time
 * and context (pCPU, domain, vCPU) as a function record's, its id and its
 * first three payload words in place of the addresses, and the number of
 * its words in depth.  An event of more than three words is followed in
 * its CPU's buffer by one more record (struct xen_dyntrace_event_more,
 * depth XEN_DYNTRACE_EVENT_MORE) with the same time and context and words
 * 3 to 6.  A reader pairs the two; one without the other (its partner was
 * overwritten before it was read) is shown with the words it has (a head)
 * or skipped (a continuation).  A consuming read never returns a head
 * without its continuation.
 */

#ifndef __XEN_PUBLIC_DYNTRACE_EVENTS_H__
#define __XEN_PUBLIC_DYNTRACE_EVENTS_H__

#define XEN_DYNTRACE_FLAG_EVENT      0x80 /* an event (of any record flags) */
#define XEN_DYNTRACE_EVENT_MORE      0x80 /* depth of a continuation */
#define XEN_DYNTRACE_EVENT_WORDS     7    /* payload words at most */
#define XEN_DYNTRACE_EVENT_HEAD_WORDS 3   /* ... of them in the first record */
/* Bits of an id that name the event (the others are flags, e.g. cycles). */
#define XEN_DYNTRACE_EVENT_ID_MASK   0x0fffffffU

struct xen_dyntrace_event {
    uint64_t ts;
    uint32_t id;                /* TRC_* (public/trace.h), 28 bits */
    uint32_t word[XEN_DYNTRACE_EVENT_HEAD_WORDS];
    uint16_t domid;
    uint16_t vcpu;
    uint16_t cpu;
    uint8_t flags;              /* XEN_DYNTRACE_FLAG_EVENT | ... */
    uint8_t nr_words;           /* 0 to XEN_DYNTRACE_EVENT_WORDS */
};

struct xen_dyntrace_event_more {
    uint64_t ts;                /* the head's */
    uint32_t word[XEN_DYNTRACE_EVENT_WORDS - XEN_DYNTRACE_EVENT_HEAD_WORDS];
    uint16_t domid;             /* the head's context */
    uint16_t vcpu;
    uint16_t cpu;
    uint8_t flags;              /* XEN_DYNTRACE_FLAG_EVENT | ... */
    uint8_t more;               /* XEN_DYNTRACE_EVENT_MORE */
};

/*
 * The classes (ftrace's subsystems), in the order of the table below:
 * C(name, the id bits every event of the class has, their mask).
 */
#define XEN_DYNTRACE_EVENT_CLASSES(C)                   \
    C(sched, 0x00020000, 0x0fff0000)                    \
    C(dom0,  0x00040000, 0x0fff0000)                    \
    C(hvm,   0x00080000, 0x0fff0000)                    \
    C(mem,   0x00100000, 0x0fff0000)                    \
    C(pv,    0x00200000, 0x0fff0000)                    \
    C(shadow, 0x00400000, 0x0fff0000)                   \
    C(pm,    0x00801000, 0x0ffff000)                    \
    C(irq,   0x00802000, 0x0ffff000)

/*
 * The events, grouped by class in the order above: E(class, name, id,
 * mask, format).  An id matches when (id & mask) == the row's id; the
 * first matching row names it.  format is printed as text but for its
 * conversions, '%', a letter and the digits it takes:
 *   %uN   word N, unsigned decimal
 *   %xN   word N, hexadecimal
 *   %aN   word N's low 16 bits, unsigned decimal
 *   %bN   word N's high 16 bits, unsigned decimal
 *   %XNM  words N (low half) and M (high half), one 64-bit hexadecimal
 *         (word N alone where the event does not carry M: a 32-bit form)
 *   %dN   word N, a domain id: "d1", or "idle"
 *   %vNM  words N (a domain id) and M (a vCPU id): "d1v0", or "idle"
 *   %VN   word N, a domain id << 16 | a vCPU id: as %v
 *   %sK   the id's bits K and K + 1 (K a hex digit), a run state
 *   %hN   word N's low 20 bits, a hypercall: "domctl(36)"
 *   %e    the id's low 9 bits, a scheduler's own event number
 *   %W    every word, in hexadecimal
 * A word the event does not carry prints as "?".  An empty format is %W.
 */
#define XEN_DYNTRACE_EVENTS(E)                                                \
    E(sched, runstate_change, 0x00021001, 0x0ffff00f,                         \
      "vcpu=%V0 old=%s8 new=%s4")                                             \
    E(sched, continue_running, 0x00021002, 0x0fffffff, "vcpu=%V0")            \
    E(sched, csched, 0x00022000, 0x0ffffe00, "event=%e %W")                   \
    E(sched, csched2, 0x00022200, 0x0ffffe00, "event=%e %W")                  \
    E(sched, arinc653, 0x00022600, 0x0ffffe00, "event=%e %W")                 \
    E(sched, rtds, 0x00022800, 0x0ffffe00, "event=%e %W")                     \
    E(sched, null, 0x00022a00, 0x0ffffe00, "event=%e %W")                     \
    E(sched, dom_add, 0x00028001, 0x0fffffff, "dom=%d0")                      \
    E(sched, dom_rem, 0x00028002, 0x0fffffff, "dom=%d0")                      \
    E(sched, sleep, 0x00028003, 0x0fffffff, "vcpu=%v01")                      \
    E(sched, wake, 0x00028004, 0x0fffffff, "vcpu=%v01")                       \
    E(sched, yield, 0x00028005, 0x0fffffff, "vcpu=%v01")                      \
    E(sched, block, 0x00028006, 0x0fffffff, "vcpu=%v01")                      \
    E(sched, shutdown, 0x00028007, 0x0fffffff, "vcpu=%v01 reason=%u2")        \
    E(sched, ctl, 0x00028008, 0x0fffffff, "")                                 \
    E(sched, adjdom, 0x00028009, 0x0fffffff, "dom=%d0")                       \
    E(sched, sched_switch, 0x0002800a, 0x0fffffff,                            \
      "prev=%v01 ==> next=%v23")                                              \
    E(sched, s_timer_fn, 0x0002800b, 0x0fffffff, "")                          \
    E(sched, t_timer_fn, 0x0002800c, 0x0fffffff, "")                          \
    E(sched, dom_timer_fn, 0x0002800d, 0x0fffffff, "")                        \
    E(sched, switch_infprev, 0x0002800e, 0x0fffffff,                          \
      "prev=%v01 ran_ns=%u2")                                                 \
    E(sched, switch_infnext, 0x0002800f, 0x0fffffff,                          \
      "next=%v01 waited_ns=%u2 slice_ns=%u3")                                 \
    E(sched, shutdown_code, 0x00028010, 0x0fffffff, "vcpu=%v01 code=%u2")     \
    E(sched, switch_infcont, 0x00028011, 0x0fffffff,                          \
      "vcpu=%v01 ran_ns=%u2 slice_ns=%u3")                                    \
    E(dom0, dom_add, 0x00041001, 0x0fffffff, "dom=%d0")                       \
    E(dom0, dom_rem, 0x00041002, 0x0fffffff, "dom=%d0")                       \
    E(hvm, vmentry, 0x00081001, 0x0ffffbff, "")                               \
    E(hvm, vmx_exit, 0x00081002, 0x0ffffaff, "reason=%u0 rip=%X12")          \
    E(hvm, svm_exit, 0x00081003, 0x0ffffaff, "reason=%u0 rip=%X12")          \
    E(hvm, pf_xen, 0x00082001, 0x0ffffaff, "")                                \
    E(hvm, pf_inject, 0x00082002, 0x0ffffaff, "")                             \
    E(hvm, inj_exc, 0x00082003, 0x0ffffaff, "vector=%u0 errcode=%x1")        \
    E(hvm, inj_virq, 0x00082004, 0x0ffffaff, "vector=%u0")                    \
    E(hvm, reinj_virq, 0x00082005, 0x0ffffaff, "vector=%u0")                  \
    E(hvm, io_read, 0x00082006, 0x0ffffaff, "")                               \
    E(hvm, io_write, 0x00082007, 0x0ffffaff, "")                              \
    E(hvm, cr_read, 0x00082008, 0x0ffffaff, "")                               \
    E(hvm, cr_write, 0x00082009, 0x0ffffaff, "")                              \
    E(hvm, dr_read, 0x0008200a, 0x0ffffaff, "")                               \
    E(hvm, dr_write, 0x0008200b, 0x0ffffaff, "")                              \
    E(hvm, msr_read, 0x0008200c, 0x0ffffaff, "msr=%x0 value=%X12")           \
    E(hvm, msr_write, 0x0008200d, 0x0ffffaff, "msr=%x0 value=%X12")          \
    E(hvm, cpuid, 0x0008200e, 0x0ffffaff, "leaf=%x0 %W")                      \
    E(hvm, intr, 0x0008200f, 0x0ffffaff, "")                                  \
    E(hvm, nmi, 0x00082010, 0x0ffffaff, "")                                   \
    E(hvm, smi, 0x00082011, 0x0ffffaff, "")                                   \
    E(hvm, vmmcall, 0x00082012, 0x0ffffaff, "op=%h0")                         \
    E(hvm, hlt, 0x00082013, 0x0ffffaff, "")                                   \
    E(hvm, invlpg, 0x00082014, 0x0ffffaff, "")                                \
    E(hvm, mce, 0x00082015, 0x0ffffaff, "")                                   \
    E(hvm, ioport_read, 0x00082016, 0x0ffffaff, "")                           \
    E(hvm, iomem_read, 0x00082017, 0x0ffffaff, "")                            \
    E(hvm, clts, 0x00082018, 0x0ffffaff, "")                                  \
    E(hvm, lmsw, 0x00082019, 0x0ffffaff, "")                                  \
    E(hvm, rdtsc, 0x0008201a, 0x0ffffaff, "")                                 \
    E(hvm, intr_window, 0x00082020, 0x0ffffaff, "")                           \
    E(hvm, npf, 0x00082021, 0x0ffffaff, "")                                   \
    E(hvm, realmode_emulate, 0x00082022, 0x0ffffaff, "")                      \
    E(hvm, trap, 0x00082023, 0x0ffffaff, "")                                  \
    E(hvm, trap_debug, 0x00082024, 0x0ffffaff, "")                            \
    E(hvm, vlapic, 0x00082025, 0x0ffffaff, "")                                \
    E(hvm, xcr_read, 0x00082026, 0x0ffffaff, "")                              \
    E(hvm, xcr_write, 0x00082027, 0x0ffffaff, "")                             \
    E(hvm, ioport_write, 0x00082216, 0x0ffffaff, "")                          \
    E(hvm, iomem_write, 0x00082217, 0x0ffffaff, "")                           \
    E(hvm, emul, 0x00084000, 0x0ffff000, "event=%e %W")                       \
    E(mem, grant_map, 0x0010f001, 0x0fffffff, "")                             \
    E(mem, grant_unmap, 0x0010f002, 0x0fffffff, "")                           \
    E(mem, grant_transfer, 0x0010f003, 0x0fffffff, "")                        \
    E(mem, set_p2m_entry, 0x0010f004, 0x0fffffff, "")                         \
    E(mem, decrease_reservation, 0x0010f005, 0x0fffffff, "")                  \
    E(mem, pod_populate, 0x0010f010, 0x0fffffff, "")                          \
    E(mem, pod_zero_reclaim, 0x0010f011, 0x0fffffff, "")                      \
    E(mem, pod_superpage_splinter, 0x0010f012, 0x0fffffff, "")                \
    E(pv, hypercall_v1, 0x00201001, 0x0ffffeff, "")                           \
    E(pv, trap, 0x00201003, 0x0ffffeff, "")                                   \
    E(pv, page_fault, 0x00201004, 0x0ffffeff, "")                             \
    E(pv, forced_invalid_op, 0x00201005, 0x0ffffeff, "")                      \
    E(pv, emulate_privop, 0x00201006, 0x0ffffeff, "")                         \
    E(pv, emulate_4gb, 0x00201007, 0x0ffffeff, "")                            \
    E(pv, math_state_restore, 0x00201008, 0x0ffffeff, "")                     \
    E(pv, paging_fixup, 0x00201009, 0x0ffffeff, "")                           \
    E(pv, gdt_ldt_mapping_fault, 0x0020100a, 0x0ffffeff, "")                  \
    E(pv, ptwr_emulation, 0x0020100b, 0x0ffffeff, "")                         \
    E(pv, ptwr_emulation_pae, 0x0020100c, 0x0ffffeff, "")                     \
    E(pv, hypercall, 0x0020100d, 0x0fffffff, "op=%h0 %W")                     \
    E(pv, hypercall_subcall, 0x0020200e, 0x0fffffff, "op=%h0 %W")             \
    E(shadow, not_shadow, 0x00400001, 0x0ffff0ff, "")                         \
    E(shadow, fast_propagate, 0x00400002, 0x0ffff0ff, "")                     \
    E(shadow, fast_mmio, 0x00400003, 0x0ffff0ff, "")                          \
    E(shadow, false_fast_path, 0x00400004, 0x0ffff0ff, "")                    \
    E(shadow, mmio, 0x00400005, 0x0ffff0ff, "")                               \
    E(shadow, fixup, 0x00400006, 0x0ffff0ff, "")                              \
    E(shadow, domf_dying, 0x00400007, 0x0ffff0ff, "")                         \
    E(shadow, emulate, 0x00400008, 0x0ffff0ff, "")                            \
    E(shadow, emulate_unshadow_user, 0x00400009, 0x0ffff0ff, "")              \
    E(shadow, emulate_unshadow_evtinj, 0x0040000a, 0x0ffff0ff, "")            \
    E(shadow, emulate_unshadow_unhandled, 0x0040000b, 0x0ffff0ff, "")         \
    E(shadow, wrmap_bf, 0x0040000c, 0x0ffff0ff, "")                           \
    E(shadow, prealloc_unpin, 0x0040000d, 0x0ffff0ff, "")                     \
    E(shadow, resync_full, 0x0040000e, 0x0ffff0ff, "")                        \
    E(shadow, resync_only, 0x0040000f, 0x0ffff0ff, "")                        \
    E(pm, freq_change, 0x00801001, 0x0fffffff, "from_mhz=%u0 to_mhz=%u1")     \
    E(pm, idle_entry, 0x00801002, 0x0fffffff, "state=%u0 %W")                 \
    E(pm, idle_exit, 0x00801003, 0x0fffffff, "state=%u0 %W")                  \
    E(irq, move_cleanup_delay, 0x00802001, 0x0fffffff,                        \
      "irq=%u0 vector=%u1 cpu=%u2")                                           \
    E(irq, move_cleanup, 0x00802002, 0x0fffffff,                              \
      "irq=%u0 vector=%u1 cpu=%u2")                                           \
    E(irq, bind_vector, 0x00802003, 0x0fffffff,                               \
      "irq=%a0 vector=%b0 mask=%x1")                                          \
    E(irq, clear_vector, 0x00802004, 0x0fffffff,                              \
      "irq=%a0 vector=%b0 mask=%x1")                                          \
    E(irq, move_finish, 0x00802005, 0x0fffffff,                               \
      "irq=%u0 old_vector=%u1 cpu=%u2")                                       \
    E(irq, assign_vector, 0x00802006, 0x0fffffff,                             \
      "irq=%a0 vector=%b0 mask=%x1")                                          \
    E(irq, unmapped_vector, 0x00802007, 0x0fffffff, "vector=%u0")             \
    E(irq, handled, 0x00802008, 0x0fffffff, "irq=%u0")

/* The run states of %s (public/vcpu.h's RUNSTATE_*). */
#define XEN_DYNTRACE_RUNSTATES "running", "runnable", "blocked", "offline"

/* The hypercalls of %h (public/xen.h's __HYPERVISOR_*), by number. */
#define XEN_DYNTRACE_HYPERCALLS                                               \
    "set_trap_table", "mmu_update", "set_gdt", "stack_switch",                \
    "set_callbacks", "fpu_taskswitch", "sched_op_compat", "platform_op",      \
    "set_debugreg", "get_debugreg", "update_descriptor", NULL, "memory_op",   \
    "multicall", "update_va_mapping", "set_timer_op",                         \
    "event_channel_op_compat", "xen_version", "console_io",                   \
    "physdev_op_compat", "grant_table_op", "vm_assist",                       \
    "update_va_mapping_otherdomain", "iret", "vcpu_op", "set_segment_base",   \
    "mmuext_op", "xsm_op", "nmi_op", "sched_op", "callback_op",               \
    "xenoprof_op", "event_channel_op", "physdev_op", "hvm_op", "sysctl",      \
    "domctl", "kexec_op", "tmem_op", "argo_op", "xenpmu_op", "dm_op",         \
    "hypfs_op"

#ifdef XEN_DYNTRACE_EVENT_FORMATTER
/*
 * The text of an event's fields by its row's format (the table above),
 * for both the hypervisor and the dom0 tool: define
 * XEN_DYNTRACE_EVENT_FORMATTER where snprintf() is declared.  Writes at
 * most len bytes, NUL included (len > 0); returns the length written.
 */
static inline unsigned int xen_dyntrace_event_format(
    char *buf, unsigned int len, const char *fmt, uint32_t id,
    const uint32_t *word, unsigned int nr)
{
    static const char *const states[] = { XEN_DYNTRACE_RUNSTATES };
    static const char *const calls[] = { XEN_DYNTRACE_HYPERCALLS };
    unsigned int at = 0, i;
    const char *p = *fmt ? fmt : "%W";

#define XDT_PUT(...) do {                                               \
        int n_ = snprintf(buf + at, len - at, __VA_ARGS__);             \
        at += n_ < 0 ? 0 : (unsigned int)n_ < len - at ? (unsigned int)n_ \
                                                       : len - 1 - at;  \
    } while ( 0 )
#define XDT_WORD(c) ((unsigned int)((c) - '0'))
#define XDT_HAS(c) ((c) >= '0' && (c) <= '6' && XDT_WORD(c) < nr)

    buf[0] = '\0';
    for ( ; *p && at + 1 < len; p++ )
    {
        char c = p[1];

        if ( *p != '%' || !c )
        {
            XDT_PUT("%c", *p);
            continue;
        }
        p++;
        switch ( c )
        {
        case 'W':
            for ( i = 0; i < nr; i++ )
                XDT_PUT("%s%#x", i ? " " : "", word[i]);
            break;
        case 'e':
            XDT_PUT("%u", id & 0x1ff);
            break;
        case 's':
        {
            unsigned int k = p[1] >= 'a' ? (unsigned int)(p[1] - 'a') + 10
                                         : (unsigned int)(p[1] - '0');

            if ( p[1] )
                p++;
            XDT_PUT("%s", k < 28 ? states[(id >> k) & 3] : "?");
            break;
        }
        case 'u': case 'x': case 'a': case 'b': case 'd': case 'V': case 'h':
            if ( !p[1] )
                break;
            p++;
            if ( !XDT_HAS(*p) )
                XDT_PUT("?");
            else if ( c == 'u' )
                XDT_PUT("%u", word[XDT_WORD(*p)]);
            else if ( c == 'x' )
                XDT_PUT("%#x", word[XDT_WORD(*p)]);
            else if ( c == 'a' || c == 'b' )
                XDT_PUT("%u", (word[XDT_WORD(*p)] >> (c == 'b' ? 16 : 0)) &
                              0xffff);
            else if ( c == 'h' )
            {
                uint32_t op = word[XDT_WORD(*p)] & 0xfffff;

                if ( op < sizeof(calls) / sizeof(calls[0]) && calls[op] )
                    XDT_PUT("%s(%u)", calls[op], op);
                else
                    XDT_PUT("%u", op);
            }
            else
            {
                uint32_t w = word[XDT_WORD(*p)];
                uint32_t d = c == 'V' ? w >> 16 : w;

                if ( d == 0x7fff )
                    XDT_PUT("idle");
                else if ( c == 'V' )
                    XDT_PUT("d%uv%u", d, w & 0xffff);
                else
                    XDT_PUT("d%u", d);
            }
            break;
        case 'X': case 'v':
        {
            const char *a = p + 1, *b = *a ? a + 1 : a;

            if ( !*a || !*b )
                break;
            p = b;
            if ( c == 'X' && XDT_HAS(*a) )
            {
                unsigned long long v = word[XDT_WORD(*a)];

                if ( XDT_HAS(*b) )
                    v |= (unsigned long long)word[XDT_WORD(*b)] << 32;
                XDT_PUT("%#llx", v);
            }
            else if ( !XDT_HAS(*a) || !XDT_HAS(*b) )
                XDT_PUT("?");
            else if ( word[XDT_WORD(*a)] == 0x7fff )
                XDT_PUT("idle");
            else
                XDT_PUT("d%uv%u", word[XDT_WORD(*a)], word[XDT_WORD(*b)]);
            break;
        }
        default:
            XDT_PUT("%%%c", c);
            break;
        }
    }

#undef XDT_HAS
#undef XDT_WORD
#undef XDT_PUT
    return at;
}
#endif /* XEN_DYNTRACE_EVENT_FORMATTER */

#endif /* __XEN_PUBLIC_DYNTRACE_EVENTS_H__ */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
