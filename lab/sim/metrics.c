/*
 * metrics.c - the address-derived metrics of one warp-level access
 * (docs/design/simulator.md, "Metrics, matched to Nsight Compute"): global requests, 32-byte
 * sectors and bytes; shared-memory wavefronts (bank = 4-byte word % 32; the same word is a
 * multicast; accesses wider than 4 bytes are served per 128 bytes of lanes).
 * Atomics (atom, red) are counted apart, as Nsight Compute does (op_atom and
 * op_red are neither op_ld nor op_st); lanes on one address are served one
 * after another, so a sector counts once per lane on its busiest address
 * (recorded on the H100: a float atomicAdd of 32 lanes to one word is 32
 * sectors).  The lanes of a block's shared atomics on one address are served one after another
 * too, whichever warp they are in (a CAS loop in SASS for a float: one lane wins each round, the
 * others of every warp try again), so a block counts its busiest shared address's lanes.
 */
#include "lab/sim/exec.h"

#include <stdlib.h>
#include <string.h>

static int
cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* distinct values of v[0..n) (n <= 128) */
static uint32_t
distinct(uint64_t *v, uint32_t n)
{
    bool sorted = true;
    uint32_t count = 0;

    for (uint32_t i = 1; i < n && sorted; i++)
        sorted = v[i - 1] <= v[i];
    if (!sorted)
        qsort(v, n, sizeof(*v), cmp_u64);
    for (uint32_t i = 0; i < n; i++)
        count += i == 0 || v[i] != v[i - 1];
    return count;
}

/* atomics: per sector, the most lanes that hit one address in it */
static uint32_t
atomic_sectors(uint64_t *a, uint32_t n)
{
    uint32_t sectors = 0, run = 0, worst = 0;

    qsort(a, n, sizeof(*a), cmp_u64);
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 && a[i] >> 5 != a[i - 1] >> 5) { /* a new sector */
            sectors += worst;
            worst = 0;
        }
        run = i > 0 && a[i] == a[i - 1] ? run + 1 : 1;
        if (run > worst)
            worst = run;
    }
    return sectors + worst;
}

/* The common access: all 32 lanes, lane l at addr[0] + l * bytes, at most a sector each (so
 * a lane touches its first and last sector only, as below): the sectors are the range. */
static bool
contiguous(const uint64_t *addr, uint32_t mask, uint32_t bytes)
{
    uint64_t off = 0;

    if (mask != 0xffffffffu || bytes > 32)
        return false;
    for (int l = 1; l < 32; l++)
        off |= addr[l] - addr[l - 1] - bytes;
    return off == 0;
}

void
lab_sim__count_global(lab_sim_metrics *mt, sim_access kind, const uint64_t *addr, uint32_t mask,
                      uint32_t bytes)
{
    uint64_t sec[64];
    uint32_t n = 0, lanes = 0, sectors;

    if (kind == SIM_ACCESS_ATOM) { /* ..._op_atom + _op_red: neither a load nor a store for ncu */
        uint64_t at[32];
        for (int l = 0; l < 32; l++)
            if (mask >> l & 1u)
                at[n++] = addr[l];
        mt->gatom_requests++;
        mt->gatom_sectors += atomic_sectors(at, n);
        return;
    }
    if (contiguous(addr, mask, bytes)) {
        lanes = 32;
        sectors = (uint32_t)(((addr[31] + bytes - 1) >> 5) - (addr[0] >> 5) + 1);
    } else {
        /* distinct() in the same pass while the sectors come in order (the lanes' addresses
         * mostly rise): how many differ from the one before */
        bool sorted = true;
        uint32_t rising = 0;
        for (int l = 0; l < 32; l++) {
            if (!(mask >> l & 1u))
                continue;
            uint64_t first = addr[l] >> 5, last = (addr[l] + bytes - 1) >> 5;
            sorted &= n == 0 || first >= sec[n - 1];
            rising += n == 0 || first != sec[n - 1];
            sec[n++] = first;
            if (last != first && n < 64) {
                rising++; /* last > first */
                sec[n++] = last;
            }
            lanes++;
        }
        sectors = sorted ? rising : distinct(sec, n);
    }
    if (kind == SIM_ACCESS_LOAD) { /* l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_ld */
        mt->gld_requests++;
        mt->gld_sectors += sectors;
        mt->gld_bytes += (uint64_t)lanes * bytes;
    } else { /* ..._op_st */
        mt->gst_requests++;
        mt->gst_sectors += sectors;
        mt->gst_bytes += (uint64_t)lanes * bytes;
    }
}

/* A 4-byte access where every lane l of mask is at the same base + 4 * l: 32 words in 32 banks,
 * one wavefront (what the loop below finds, without looking for the words) */
static bool
lane_words(const uint64_t *addr, uint32_t mask, uint32_t bytes)
{
    uint64_t base, off = 0;

    if (bytes != 4 || !mask)
        return false;
    base = addr[__builtin_ctz(mask)] - 4 * (uint64_t)__builtin_ctz(mask);
    for (int l = 0; l < 32; l++)
        off |= (addr[l] - 4 * (uint64_t)l - base) & (0 - (uint64_t)(mask >> l & 1u));
    return off == 0;
}

void
lab_sim__count_shared(lab_sim_metrics *mt, const uint64_t *addr, uint32_t mask, uint32_t bytes)
{
    uint32_t group = bytes <= 4 ? 32 : 128 / bytes, wavefronts = 0, ideal = 0;

    if (lane_words(addr, mask, bytes)) {
        mt->shared_requests++;
        mt->shared_wavefronts++;
        return;
    }

    for (int g0 = 0; g0 < 32; g0 += (int)group) {
        uint64_t words[32][32];
        uint32_t nw[32] = { 0 };
        uint32_t worst = 0;
        bool any = false;
        for (int l = g0; l < g0 + (int)group && l < 32; l++) {
            if (!(mask >> l & 1u))
                continue;
            any = true;
            for (uint32_t k = 0; k < (bytes + 3) / 4; k++) {
                uint64_t word = (addr[l] >> 2) + k;
                uint32_t bank = (uint32_t)(word % 32), i;
                for (i = 0; i < nw[bank]; i++)
                    if (words[bank][i] == word)
                        break;
                if (i == nw[bank]) /* at most 32 words per group of lanes */
                    words[bank][nw[bank]++] = word;
                if (nw[bank] > worst)
                    worst = nw[bank];
            }
        }
        if (any) {
            wavefronts += worst ? worst : 1;
            ideal++;
        }
    }
    mt->shared_requests++;
    mt->shared_wavefronts += wavefronts;
    mt->shared_conflicts += wavefronts - ideal;
}

/* The slot of key in s for this epoch, added if it was not there (*added); SIZE_MAX when out of
 * memory (s->failed).  A set with counts keeps one per entry. */
static size_t
sectorset_slot(sim_sectorset *s, uint64_t key, bool *added)
{
    size_t i;

    *added = false;
    if ((s->n + 1) * 2 > s->cap) { /* grow, keeping this epoch's entries */
        size_t cap = s->cap ? s->cap * 2 : 1024;
        uint64_t *keys = calloc(cap, sizeof(*keys));
        uint32_t *epochs = calloc(cap, sizeof(*epochs));
        uint32_t *counts = s->counted ? calloc(cap, sizeof(*counts)) : NULL;
        if (!keys || !epochs || (s->counted && !counts)) {
            free(keys);
            free(epochs);
            free(counts);
            s->failed = true;
            return SIZE_MAX;
        }
        for (size_t j = 0; j < s->cap; j++) {
            if (s->epochs[j] != s->epoch)
                continue;
            for (i = (size_t)(s->keys[j] * 0x9e3779b97f4a7c15ull) & (cap - 1);
                 epochs[i] == s->epoch; i = (i + 1) & (cap - 1))
                ;
            keys[i] = s->keys[j];
            epochs[i] = s->epoch;
            if (counts)
                counts[i] = s->counts[j];
        }
        free(s->keys);
        free(s->epochs);
        free(s->counts);
        s->keys = keys;
        s->epochs = epochs;
        s->counts = counts;
        s->cap = cap;
    }
    for (i = (size_t)(key * 0x9e3779b97f4a7c15ull) & (s->cap - 1); s->epochs[i] == s->epoch;
         i = (i + 1) & (s->cap - 1))
        if (s->keys[i] == key)
            return i;
    s->keys[i] = key;
    s->epochs[i] = s->epoch;
    if (s->counts)
        s->counts[i] = 0;
    s->n++;
    *added = true;
    return i;
}

/* A set's entries belong to the block of epoch from here on: a new block starts empty. */
static void
sectorset_epoch(sim_sectorset *s, uint32_t epoch)
{
    if (s->epoch != epoch) {
        s->epoch = epoch;
        s->n = 0;
        s->worst = 0;
    }
}

void
lab_sim__count_block_loads(sim_sectorset *set, uint32_t epoch, lab_sim_metrics *mt,
                           const uint64_t *addr, uint32_t mask, uint32_t bytes)
{
    bool added;

    if (set->failed || !epoch)
        return;
    sectorset_epoch(set, epoch);
    /* neighbouring lanes mostly share a sector: one the lane before added (or found) is in the
     * set already, and is not looked up again */
    uint64_t last = UINT64_MAX;
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1u))
            continue;
        for (uint64_t sec = addr[l] >> 5; sec <= (addr[l] + bytes - 1) >> 5; sec++)
            if (sec != last) {
                sectorset_slot(set, sec, &added);
                mt->gld_block_sectors += added;
                last = sec;
            }
    }
}

void
lab_sim__count_shared_atom(sim_sectorset *set, uint32_t epoch, lab_sim_metrics *mt,
                           const uint64_t *addr, uint32_t mask)
{
    bool added;
    size_t i;

    mt->shared_atom_requests++;
    if (set->failed || !epoch)
        return;
    set->counted = true;
    sectorset_epoch(set, epoch);
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1u) || (i = sectorset_slot(set, addr[l], &added)) == SIZE_MAX)
            continue;
        if (++set->counts[i] > set->worst) { /* the block's busiest address so far */
            mt->shared_atom_serial += set->counts[i] - set->worst;
            set->worst = set->counts[i];
        }
    }
}

void
lab_sim__sectorset_free(sim_sectorset *set)
{
    free(set->keys);
    free(set->epochs);
    free(set->counts);
    memset(set, 0, sizeof(*set));
}
