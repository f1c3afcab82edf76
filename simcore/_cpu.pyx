# What this CPU can run, for simcore._isa (which engine build to load).

cdef extern from *:
    """
    /* x86-64-v3 (AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE, with the OS saving the AVX
       registers: libgcc's check); 0 elsewhere */
    static int bl_x86_64_v3(void) {
    #if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
        __builtin_cpu_init();
        return __builtin_cpu_supports("x86-64-v3") != 0;
    #elif defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi")
            && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma")
            && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("popcnt");
    #else
        return 0;
    #endif
    }
    """
    int bl_x86_64_v3() nogil


def x86_64_v3():
    """True when this CPU runs x86-64-v3 code."""
    return bl_x86_64_v3() != 0
