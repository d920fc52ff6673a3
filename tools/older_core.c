/* A process as an older x86 core runs it, at this core's own speed: loaded first (LD_PRELOAD, by tools/older_core.py),
 * this makes the CPUID instruction trap (Linux's ARCH_SET_CPUID, on processors with CPUID faulting) and answers it as
 * the processor does, less the instruction sets the core named by BELOTE_CORE lacks:
 *
 *   avx512  AVX-512 F, CD, BW, DQ and VL without VNNI (nor the later AVX-512 sets, AVX-VNNI, AMX): Skylake-SP
 *   avx2    no AVX-512 at all, as avx512 besides: Intel from Haswell to Comet Lake, or AMD Zen 1-3
 *   sse4    no AVX at all (nor FMA, F16C, AVX2, BMI), as avx2 besides: a core from before 2011, or a later Atom,
 *           Celeron or Pentium (Goldmont, say: many a small home server)
 *
 * onnxruntime, OpenCV and NumPy ask CPUID when they load and take the kernels of the sets it reports, so they compute
 * as on such a core (without VNNI, onnxruntime's 8-bit products saturate in 16-bit pair sums, as on a real one).
 * Only their choice of kernels changes: the same instructions at the same clock, so the seconds are those of this
 * core's clock and caches with that core's instruction sets. */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <cpuid.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#define BIT(n) (1u << (n))

enum core { AVX512, AVX2, SSE4 };
static enum core core;
int belote_older_core = 1; /* found by name in a process where this is loaded (tools/older_core.py checks) */

static long cpuid_traps(int trap) { return syscall(SYS_arch_prctl, ARCH_SET_CPUID, trap ? 0 : 1); }

/* The registers CPUID answers for (leaf, subleaf), with the sets this core lacks cleared. */
static void as_older(unsigned leaf, unsigned sub, unsigned *a, unsigned *b, unsigned *c, unsigned *d) {
    if (leaf == 1 && core == SSE4)
        *c &= ~(BIT(12) | BIT(28) | BIT(29)); /* FMA, AVX, F16C */
    if (leaf == 7 && sub == 0) {
        *b &= ~(BIT(21) | BIT(26) | BIT(27)); /* AVX512 IFMA, PF, ER */
        /* AVX512 VBMI, VBMI2, VNNI, BITALG, VPOPCNTDQ */
        *c &= ~(BIT(1) | BIT(6) | BIT(11) | BIT(12) | BIT(14));
        /* AVX512 4VNNIW, 4FMAPS, VP2INTERSECT, AMX-BF16, AVX512-FP16, AMX-TILE, AMX-INT8 */
        *d &= ~(BIT(2) | BIT(3) | BIT(8) | BIT(22) | BIT(23) | BIT(24) | BIT(25));
        if (core != AVX512)
            *b &= ~(BIT(16) | BIT(17) | BIT(28) | BIT(30) | BIT(31)); /* AVX512 F, DQ, CD, BW, VL */
        if (core == SSE4)
            *b &= ~(BIT(3) | BIT(5) | BIT(8)); /* BMI1, AVX2, BMI2 */
    }
    if (leaf == 7 && sub == 1) {
        *a &= ~(BIT(4) | BIT(5) | BIT(23));          /* AVX-VNNI, AVX512-BF16, AVX-IFMA */
        *d &= ~(BIT(4) | BIT(5) | BIT(10) | BIT(19)); /* AVX-VNNI-INT8, AVX-NE-CONVERT, AVX-VNNI-INT16, AVX10 */
    }
}

static void on_fault(int signal_number, siginfo_t *info, void *context) {
    greg_t *r = ((ucontext_t *)context)->uc_mcontext.gregs;
    const unsigned char *at = (const unsigned char *)r[REG_RIP];
    unsigned a, b, c, d, leaf = (unsigned)r[REG_RAX], sub = (unsigned)r[REG_RCX];
    (void)info;
    if (at[0] != 0x0f || at[1] != 0xa2) { /* not CPUID: a real fault, which the default action reports */
        signal(signal_number, SIG_DFL);
        return;
    }
    cpuid_traps(0);
    __cpuid_count(leaf, sub, a, b, c, d);
    cpuid_traps(1);
    as_older(leaf, sub, &a, &b, &c, &d);
    r[REG_RAX] = a;
    r[REG_RBX] = b;
    r[REG_RCX] = c;
    r[REG_RDX] = d;
    r[REG_RIP] += 2; /* past the instruction */
}

__attribute__((constructor)) static void start(void) {
    static const char unknown[] = "older_core: BELOTE_CORE must be avx512, avx2 or sse4\n";
    static const char no_faulting[] = "older_core: this processor or kernel cannot make CPUID trap\n";
    const char *name = getenv("BELOTE_CORE");
    struct sigaction action;
    if (name != NULL && strcmp(name, "avx512") == 0)
        core = AVX512;
    else if (name != NULL && strcmp(name, "avx2") == 0)
        core = AVX2;
    else if (name != NULL && strcmp(name, "sse4") == 0)
        core = SSE4;
    else {
        (void)!write(2, unknown, sizeof unknown - 1);
        _exit(2);
    }
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &action, NULL);
    if (cpuid_traps(1) != 0) {
        (void)!write(2, no_faulting, sizeof no_faulting - 1);
        _exit(3);
    }
}
