/*
 * conformance-edges.h - the edge operands of tests/sim/conformance.cu, shared
 * with its host-side checker tests/test-sim-conf.c (raw bits, one list each).
 * Thread i of a two-operand kernel takes a = T[i % E] and b = T[(i / E) % E];
 * a three-operand one c = T[(i / (E * E)) % E].
 */
#ifndef TESTS_SIM_CONFORMANCE_EDGES_H
#define TESTS_SIM_CONFORMANCE_EDGES_H

/* f32 operands of the arithmetic: +-0, +-1, +-denormals (smallest, largest), +-FLT_MIN, FLT_MAX,
 * +-inf, a quiet and a negative NaN, 1 + ulp, 3 */
#define CONF_F32_EDGES                                                                             \
    0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x00000001u, 0x807fffffu, 0x00800000u,     \
        0x80800000u, 0x7f7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u,              \
        0x3f800001u, 0x40400000u, 0x5f800000u
#define CONF_NF 16

/* f32 operands of the conversions: halves (ties), values near 2^31 and 2^32, NaN, +-inf,
 * denormals, -0 */
#define CONF_CVT_EDGES                                                                             \
    0x00000000u, 0x80000000u, 0x3f000000u, 0xbf000000u, 0x3fc00000u, 0xbfc00000u, 0x40200000u,     \
        0xc0200000u, 0x3f7fffffu, 0xbf7fffffu, 0x4effffffu, 0x4f000000u, 0xcf000000u,              \
        0xcf000001u, 0x4f7fffffu, 0x4f800000u, 0x7fc00000u, 0xffc00000u, 0x7f800000u,              \
        0xff800000u, 0x00000001u, 0x80000001u, 0x7f7fffffu, 0xff7fffffu, 0x4b000001u,              \
        0x4b7fffffu, 0xcb000001u, 0x3effffffu, 0x40000000u, 0xc0400000u, 0x42f60000u, 0xc2f60000u
#define CONF_NC 32

/* 32-bit integers: 0, 1, 2, 7, shift counts 31, 32, 33, 255, INT_MAX, INT_MIN, -1, -2,
 * INT_MIN + 1, two bit patterns, 2^16 */
#define CONF_I32_EDGES                                                                             \
    0x00000000u, 0x00000001u, 0x00000002u, 0x00000007u, 0x0000001fu, 0x00000020u, 0x00000021u,     \
        0x000000ffu, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffffeu, 0x80000001u,              \
        0x12345678u, 0xdeadbeefu, 0x00010000u
#define CONF_NI 16

/* integer operands of the conversions to f32: ties and inexact values past 2^24 */
#define CONF_I2F_EDGES                                                                             \
    0x00000000u, 0x00000001u, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0x80000001u, 0x01000001u,     \
        0x01000003u, 0xfefffffdu, 0xfeffffffu, 0x00ffffffu, 0x7fffffc0u, 0x7fffffbfu,              \
        0xc0000001u, 0x12345678u, 0xdeadbeefu
#define CONF_NJ 16

/* bit-field positions and lengths (bfe, bfi): 0, 1, 8, 31, 32, 33, 255, 256 (its low byte is 0) */
#define CONF_POS_EDGES 0u, 1u, 8u, 31u, 32u, 33u, 255u, 256u
#define CONF_NP 8

/* 64-bit integer operands as (low, high) word pairs: 0, 1, 2, 7, -1, -2, INT64_MAX, INT64_MIN,
 * INT64_MIN + 1, 2^32 - 1, 2^32, and five bit patterns */
#define CONF_I64_EDGES                                                                             \
    0x00000000u, 0x00000000u, 0x00000001u, 0x00000000u, 0x00000002u, 0x00000000u, 0x00000007u,     \
        0x00000000u, 0xffffffffu, 0xffffffffu, 0xfffffffeu, 0xffffffffu, 0xffffffffu, 0x7fffffffu, \
        0x00000000u, 0x80000000u, 0x00000001u, 0x80000000u, 0xffffffffu, 0x00000000u, 0x00000000u, \
        0x00000001u, 0x9abcdef0u, 0x12345678u, 0xcafef00du, 0xdeadbeefu, 0x00000000u, 0x7ff80000u, \
        0x00000001u, 0xfff80000u, 0x00000000u, 0x3ff00000u
#define CONF_NL 16 /* pairs */

#endif
