/*
 * test-toolchain.c - nvcc found and run for real: PTX and cubin built,
 * cached by content, compile errors in the student's file:line form, a hung
 * compiler stopped at the timeout.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/util/buf.h"
#include "lab/build/toolchain.h"

static char tmp[] = "/tmp/test-toolchain-XXXXXX";
static lab_toolchain *tc;

static void
setup(void)
{
    lab_err err = LAB_ERR_INIT;

    cr_assert_not_null(mkdtemp(tmp));
    cr_assert_eq(lab_toolchain_find(&tc, &err), 0, "%s", err.msg);
}

static void
teardown(void)
{
    lab_buf cmd = LAB_BUF_INIT;

    lab_toolchain_free(tc);
    lab_buf_printf(&cmd, "rm -rf '%s'", tmp);
    cr_expect_eq(system(cmd.buf), 0);
    lab_buf_release(&cmd);
}

static char *
write_source(const char *name, const char *text)
{
    lab_buf path = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    lab_buf_printf(&path, "%s/%s", tmp, name);
    cr_assert_eq(lab_write_file(path.buf, text, strlen(text), &err), 0, "%s", err.msg);
    return lab_buf_detach(&path);
}

static int
build_for(const char *src, const char *instantiate, double timeout, bool host, bool rdc,
          bool ptx_only, lab_build *b, lab_err *err)
{
    lab_buf cache = LAB_BUF_INIT;
    int rc;

    lab_buf_printf(&cache, "%s/cache", tmp);
    lab_build_request req = { .source = src,
                              .instantiate = instantiate,
                              .arch = "sm_90",
                              .cache_dir = cache.buf,
                              .timeout_s = timeout,
                              .host = host,
                              .rdc = rdc,
                              .ptx_only = ptx_only };
    lab_build_init(b);
    rc = lab_toolchain_build(tc, &req, b, err);
    lab_buf_release(&cache);
    return rc;
}

static int
build_opts(const char *src, const char *instantiate, double timeout, bool host, bool rdc,
           lab_build *b, lab_err *err)
{
    return build_for(src, instantiate, timeout, host, rdc, false, b, err);
}

/* A build for the simulator: the PTX alone. */
static int
build_ptx_only(const char *src, bool rdc, lab_build *b, lab_err *err)
{
    return build_for(src, NULL, 120, false, rdc, true, b, err);
}

static int
build_kind(const char *src, const char *instantiate, double timeout, bool host, lab_build *b,
           lab_err *err)
{
    return build_opts(src, instantiate, timeout, host, false, b, err);
}

static int
build(const char *src, const char *instantiate, double timeout, lab_build *b, lab_err *err)
{
    return build_kind(src, instantiate, timeout, false, b, err);
}

TestSuite(toolchain, .init = setup, .fini = teardown, .timeout = 120);

Test(toolchain, finds_nvcc_and_its_version)
{
    cr_expect(strstr(lab_toolchain_nvcc(tc), "nvcc"));
    cr_expect(strchr(lab_toolchain_version(tc), '.'), "version '%s'", lab_toolchain_version(tc));
}

Test(toolchain, builds_and_caches)
{
    char *src = write_source("k.cu", "__global__ void k(int *p) { p[threadIdx.x] = 1; }\n");
    lab_build b1, b2;
    lab_err err = LAB_ERR_INIT;
    struct stat st;

    cr_assert_eq(build(src, NULL, 120, &b1, &err), 0, "%s", err.msg);
    cr_assert(b1.ok, "log: %s", b1.log.buf);
    cr_expect_not(b1.cached);
    cr_expect(strstr(b1.ptx.buf, ".entry _Z1kPi"));
    cr_expect(strstr(b1.ptx.buf, ".target sm_90"));
    cr_expect_eq(stat(b1.cubin_path.buf, &st), 0);
    cr_expect_gt(st.st_size, 0);
    cr_assert_eq(build(src, NULL, 120, &b2, &err), 0, "%s", err.msg);
    cr_expect(b2.ok && b2.cached);
    cr_expect_str_eq(b1.hash, b2.hash);
    lab_build_release(&b2);
    /* one byte more: a new key */
    free(src);
    src = write_source("k.cu", "__global__ void k(int *p) { p[threadIdx.x] = 2; }\n");
    cr_assert_eq(build(src, NULL, 120, &b2, &err), 0, "%s", err.msg);
    cr_expect(b2.ok && !b2.cached);
    cr_expect_str_neq(b1.hash, b2.hash);
    lab_build_release(&b1);
    lab_build_release(&b2);
    free(src);
}

Test(toolchain, compile_error_names_the_students_line)
{
    char *src = write_source("bad.cu", "// line 1\n__global__ void k(int *p)\n{\n    p[0] = "
                                       "undefined_name;\n}\n");
    lab_buf want = LAB_BUF_INIT;
    lab_build b;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(build(src, NULL, 120, &b, &err), 0, "%s", err.msg);
    cr_expect_not(b.ok);
    lab_buf_printf(&want, "%s:4: error: identifier \"undefined_name\" is undefined", src);
    cr_expect(strstr(b.log.buf, want.buf), "log: %s", b.log.buf);
    lab_build_release(&b);
    lab_buf_release(&want);
    free(src);
}

Test(toolchain, templates_are_instantiated_by_the_exercise)
{
    char *src = write_source("t.cu", "template <unsigned B>\n__global__ void k(int *p) { p[0] = B; "
                                     "}\n");
    lab_build b;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(build(src, "template __global__ void k<512>(int *);", 120, &b, &err), 0, "%s",
                 err.msg);
    cr_assert(b.ok, "log: %s", b.log.buf);
    cr_expect(strstr(b.ptx.buf, ".entry _Z1kILj512EEvPi"));
    lab_build_release(&b);
    free(src);
}

Test(toolchain, hung_compiler_times_out)
{
    char *fake = write_source("nvcc", "#!/bin/sh\n"
                                      "case \"$1\" in --version) echo 'release 0.0, V0.0.1'; exit "
                                      "0;; esac\nexec sleep 30\n");
    char *src = write_source("k.cu", "__global__ void k() {}\n");
    lab_toolchain *saved = tc;
    lab_build b;
    lab_err err = LAB_ERR_INIT;

    chmod(fake, 0755);
    setenv("CUDALAB_NVCC", fake, 1);
    cr_assert_eq(lab_toolchain_find(&tc, &err), 0, "%s", err.msg);
    cr_expect_str_eq(lab_toolchain_version(tc), "0.0.1");
    cr_assert_eq(build(src, NULL, 0.5, &b, &err), 0, "%s", err.msg);
    cr_expect_not(b.ok);
    cr_expect(b.timed_out);
    lab_build_release(&b);
    lab_toolchain_free(tc);
    tc = saved;
    unsetenv("CUDALAB_NVCC");
    free(fake);
    free(src);
}

Test(toolchain, missing_nvcc_is_a_clear_error)
{
    lab_toolchain *none = NULL;
    lab_err err = LAB_ERR_INIT;

    setenv("CUDALAB_NVCC", "/nonexistent/nvcc", 1);
    cr_expect_lt(lab_toolchain_find(&none, &err), 0);
    cr_expect(strstr(err.msg, "/nonexistent/nvcc"), "%s", err.msg);
    cr_expect_null(none);
    unsetenv("CUDALAB_NVCC");
}

Test(toolchain, rejects_a_bad_arch)
{
    char *src = write_source("k.cu", "__global__ void k() {}\n");
    lab_buf cache = LAB_BUF_INIT;
    lab_build b;
    lab_err err = LAB_ERR_INIT;

    lab_buf_printf(&cache, "%s/cache", tmp);
    lab_build_request req = {
        .source = src, .arch = "sm_90; rm -rf /", .cache_dir = cache.buf, .timeout_s = 10
    };
    lab_build_init(&b);
    cr_expect_eq(lab_toolchain_build(tc, &req, &b, &err), LAB_EINVAL);
    lab_build_release(&b);
    lab_buf_release(&cache);
    free(src);
}

Test(toolchain, log_lines_become_file_colon_line)
{
    lab_buf out = LAB_BUF_INIT;

    lab_toolchain_format_log(
        "work/a (copy).cu(21): error: x\nplain line\nf.cu(7): warning #1: y(2)\n", &out);
    cr_expect_str_eq(out.buf,
                     "work/a (copy).cu:21: error: x\nplain line\nf.cu:7: warning #1: y(2)\n");
    lab_buf_release(&out);
}

Test(toolchain, host_build_makes_a_cached_shared_object)
{
    char *src = write_source("h.cu", "int recursiveReduce(int *d, int const n) { return n; }\n");
    lab_build b1, b2;
    lab_err err = LAB_ERR_INIT;
    void *so;

    cr_assert_eq(build_kind(src, NULL, 120, true, &b1, &err), 0, "%s", err.msg);
    cr_assert(b1.ok, "log: %s", b1.log.buf);
    cr_expect_not(b1.cached);
    cr_expect(strstr(b1.so_path.buf, ".so"), "so path '%s'", b1.so_path.buf);
    cr_expect_eq(b1.ptx.len, 0, "a host build has no PTX");
    /* a real shared object with the C++ name in it */
    cr_assert_not_null(so = dlopen(b1.so_path.buf, RTLD_NOW | RTLD_LOCAL), "%s", dlerror());
    cr_expect_not_null(dlsym(so, "_Z15recursiveReducePii"));
    dlclose(so);
    cr_assert_eq(build_kind(src, NULL, 120, true, &b2, &err), 0, "%s", err.msg);
    cr_expect(b2.cached, "the second host build is a cache hit");
    cr_expect_str_eq(b2.so_path.buf, b1.so_path.buf);
    lab_build_release(&b1);
    lab_build_release(&b2);
    free(src);
}

Test(toolchain, host_build_reports_compile_errors_by_line)
{
    char *src = write_source("bad.cu", "int f(int *d) {\n  return d[0]\n}\n");
    lab_build b;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(build_kind(src, NULL, 120, true, &b, &err), 0, "%s", err.msg);
    cr_expect_not(b.ok);
    cr_expect(strstr(b.log.buf, "bad.cu:3:"), "log: %s", b.log.buf);
    lab_build_release(&b);
    free(src);
}

/* The ELF type of a cubin and whether it defines (not merely references) a symbol. */
static bool
elf_defines(const lab_buf *img, const char *name)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->buf;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img->buf + eh->e_shoff);

    for (unsigned i = 0; i < eh->e_shnum; i++) {
        const Elf64_Sym *sym = (const Elf64_Sym *)(img->buf + sh[i].sh_offset);
        const char *names = img->buf + sh[sh[i].sh_link].sh_offset;

        if (sh[i].sh_type != SHT_SYMTAB)
            continue;
        for (size_t k = 0; k < sh[i].sh_size / sizeof(*sym); k++)
            if (!strcmp(names + sym[k].st_name, name))
                return sym[k].st_shndx != SHN_UNDEF;
    }
    return false;
}

static const char launcher[] =
    "__global__ void child(int *d, unsigned n) { if (threadIdx.x < n) d[threadIdx.x] += 1; }\n"
    "__global__ void parent(int *d, unsigned n)\n"
    "{\n"
    "    if (threadIdx.x == 0)\n"
    "        child<<<1, n, 0, cudaStreamTailLaunch>>>(d, n);\n"
    "}\n";

Test(toolchain, rdc_build_links_the_device_runtime_into_one_cubin)
{
    char *src = write_source("dp.cu", launcher);
    lab_build b1, b2;
    lab_buf img = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(build_opts(src, NULL, 120, false, true, &b1, &err), 0, "%s", err.msg);
    cr_assert(b1.ok, "log: %s", b1.log.buf);
    cr_expect_not(b1.cached);
    cr_expect(strstr(b1.ptx.buf, ".entry _Z6parentPij"), "the PTX is kept for the checks");
    cr_assert_eq(lab_buf_read_file(&img, b1.cubin_path.buf, &err), 0, "%s", err.msg);
    cr_assert_gt(img.len, sizeof(Elf64_Ehdr));
    cr_expect_eq(memcmp(img.buf, ELFMAG, SELFMAG), 0, "a cubin is an ELF file");
    cr_expect_eq(((const Elf64_Ehdr *)img.buf)->e_type, ET_EXEC,
                 "linked (executable), not relocatable");
    cr_expect(elf_defines(&img, "_Z6parentPij"), "the parent kernel is an entry");
    cr_expect(elf_defines(&img, "_Z5childPij"), "so is the child");
    cr_expect(elf_defines(&img, "__cudaCDP2LaunchDeviceV2"),
              "the device-side launch comes from libcudadevrt, linked in");
    cr_assert_eq(build_opts(src, NULL, 120, false, true, &b2, &err), 0, "%s", err.msg);
    cr_expect(b2.ok && b2.cached, "the second rdc build is a cache hit");
    cr_expect_str_eq(b2.cubin_path.buf, b1.cubin_path.buf);
    lab_build_release(&b1);
    lab_build_release(&b2);
    lab_buf_release(&img);
    free(src);
}

Test(toolchain, device_launch_needs_rdc_and_rdc_is_in_the_cache_key)
{
    char *src = write_source("dp.cu", launcher);
    char *plain = write_source("k.cu", "__global__ void k(int *p) { p[threadIdx.x] = 1; }\n");
    lab_build b, r1, r2;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(build(src, NULL, 120, &b, &err), 0, "%s", err.msg);
    cr_expect_not(b.ok, "a device-side launch does not build without -rdc=true");
    cr_expect(strstr(b.log.buf, "dp.cu:5: error") && strstr(b.log.buf, "separate compilation"),
              "log: %s", b.log.buf);
    cr_assert_eq(build_opts(plain, NULL, 120, false, false, &r1, &err), 0, "%s", err.msg);
    cr_assert_eq(build_opts(plain, NULL, 120, false, true, &r2, &err), 0, "%s", err.msg);
    cr_expect(r1.ok && r2.ok && !r2.cached, "the rdc build of the same file is built anew");
    cr_expect_str_neq(r1.hash, r2.hash);
    lab_build_release(&b);
    lab_build_release(&r1);
    lab_build_release(&r2);
    free(src);
    free(plain);
}

Test(toolchain, ptx_only_builds_no_cubin_and_a_later_build_makes_it)
{
    char *src = write_source("k.cu", "__global__ void k(int *p) { p[threadIdx.x] = 3; }\n");
    lab_build b1, b2, b3, b4;
    lab_buf img = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(build_ptx_only(src, false, &b1, &err), 0, "%s", err.msg);
    cr_assert(b1.ok, "log: %s", b1.log.buf);
    cr_expect(!b1.cached && !b1.has_cubin);
    cr_expect(strstr(b1.ptx.buf, ".entry _Z1kPi"));
    cr_expect_eq(access(b1.ptx_path.buf, R_OK), 0, "the PTX is in the cache");
    cr_expect_neq(access(b1.cubin_path.buf, F_OK), 0, "no cubin was built");
    cr_assert_eq(build_ptx_only(src, false, &b2, &err), 0, "%s", err.msg);
    cr_expect(b2.ok && b2.cached && !b2.has_cubin, "the PTX alone is a cache hit for the PTX");
    /* a GPU's build of the same file: the cubin is made from the cached PTX */
    cr_assert_eq(build(src, NULL, 120, &b3, &err), 0, "%s", err.msg);
    cr_assert(b3.ok, "log: %s", b3.log.buf);
    cr_expect(!b3.cached && b3.has_cubin, "nvcc made the cubin");
    cr_expect_str_eq(b3.hash, b1.hash);
    cr_expect(strstr(b3.ptx.buf, ".entry _Z1kPi"));
    cr_assert_eq(lab_buf_read_file(&img, b3.cubin_path.buf, &err), 0, "%s", err.msg);
    cr_assert_gt(img.len, sizeof(Elf64_Ehdr));
    cr_expect_eq(memcmp(img.buf, ELFMAG, SELFMAG), 0, "a cubin is an ELF file");
    cr_expect(elf_defines(&img, "_Z1kPi"));
    cr_assert_eq(build(src, NULL, 120, &b4, &err), 0, "%s", err.msg);
    cr_expect(b4.ok && b4.cached && b4.has_cubin, "then PTX and cubin are a cache hit");
    lab_build_release(&b1);
    lab_build_release(&b2);
    lab_build_release(&b3);
    lab_build_release(&b4);
    lab_buf_release(&img);
    free(src);
}

Test(toolchain, ptx_only_then_rdc_cubin_is_linked_with_the_device_runtime)
{
    char *src = write_source("dp.cu", launcher);
    lab_build b1, b2;
    lab_buf img = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(build_ptx_only(src, true, &b1, &err), 0, "%s", err.msg);
    cr_assert(b1.ok, "log: %s", b1.log.buf);
    cr_expect_neq(access(b1.cubin_path.buf, F_OK), 0, "no cubin was built");
    cr_assert_eq(build_opts(src, NULL, 120, false, true, &b2, &err), 0, "%s", err.msg);
    cr_assert(b2.ok, "log: %s", b2.log.buf);
    cr_expect(!b2.cached && b2.has_cubin);
    cr_assert_eq(lab_buf_read_file(&img, b2.cubin_path.buf, &err), 0, "%s", err.msg);
    cr_assert_gt(img.len, sizeof(Elf64_Ehdr));
    cr_expect_eq(((const Elf64_Ehdr *)img.buf)->e_type, ET_EXEC, "linked, not relocatable");
    cr_expect(elf_defines(&img, "__cudaCDP2LaunchDeviceV2"), "libcudadevrt linked in");
    lab_build_release(&b1);
    lab_build_release(&b2);
    lab_buf_release(&img);
    free(src);
}

/* What only ptxas refuses (64 KiB of static shared memory; 48 KiB is the most): the PTX alone
 * builds, and the GPU's build, which needs the cubin, fails with ptxas's words. */
Test(toolchain, ptxas_errors_come_with_the_cubin)
{
    char *src = write_source("big.cu", "__global__ void k(int *p)\n"
                                       "{\n"
                                       "    __shared__ int s[16384];\n"
                                       "    s[threadIdx.x] = p[threadIdx.x];\n"
                                       "    __syncthreads();\n"
                                       "    p[threadIdx.x] = s[16383 - threadIdx.x];\n"
                                       "}\n");
    lab_build b1, b2;
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(build_ptx_only(src, false, &b1, &err), 0, "%s", err.msg);
    cr_expect(b1.ok, "log: %s", b1.log.buf);
    cr_assert_eq(build(src, NULL, 120, &b2, &err), 0, "%s", err.msg);
    cr_expect_not(b2.ok);
    cr_expect(strstr(b2.log.buf, "too much shared data"), "log: %s", b2.log.buf);
    cr_expect_neq(access(b2.cubin_path.buf, F_OK), 0, "no cubin");
    lab_build_release(&b1);
    lab_build_release(&b2);
    free(src);
}
