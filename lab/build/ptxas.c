/*
 * ptxas.c - ptxas's account of a PTX file (see ptxas.h).
 */
#include "lab/build/ptxas.h"
#include "lab/platform/proc.h"

#include <stdio.h>
#include <unistd.h>

int
lab_ptxas_log(const lab_toolchain *tc, const lab_ptxas_request *req, lab_buf *out, lab_err *err)
{
    lab_buf cubin = LAB_BUF_INIT;
    lab_proc p;
    char how[128];
    int rc;

    lab_proc_init(&p);
    lab_buf_printf(&cubin, "%s.%ld.v.cubin", req->ptx, (long)getpid());
    p.dir = req->dir;
    p.timeout_s = req->timeout_s;
    p.cancel = req->cancel;
    lab_strvec_pushl(&p.argv, lab_toolchain_nvcc(tc), "-cubin", NULL);
    if (req->rdc)
        lab_strvec_push(&p.argv, "-rdc=true");
    lab_strvec_pushf(&p.argv, "-arch=%s", req->arch);
    lab_strvec_pushl(&p.argv, "-Xptxas", "-v", "-o", cubin.buf, req->ptx, NULL);
    if ((rc = lab_proc_run(&p, err)) < 0)
        goto out;
    lab_buf_reset(&cubin);
    lab_buf_printf(&cubin, "%s/%s.%ld.v.cubin", req->dir, req->ptx, (long)getpid());
    unlink(cubin.buf);
    if (p.cancelled) {
        rc = lab_err_set(err, LAB_ECANCEL, "cancelled");
        goto out;
    }
    if (!p.exited || p.exit_code != 0) {
        rc = lab_err_set(err, LAB_ETOOL, "ptxas -v %s: %.300s",
                         lab_proc_describe(&p, how, sizeof(how)), p.errout.buf);
        goto out;
    }
    lab_buf_add(out, p.errout.buf, p.errout.len);
    rc = lab_buf_add(out, p.out.buf, p.out.len);
out:
    lab_proc_release(&p);
    lab_buf_release(&cubin);
    return rc;
}
