/* smpi_standalone.c -- what an smpicc-built program does when run directly.
 *
 * smpicc links a program as a shared object without an entry point:
 * smpirun's loader (smpimain) opens it and calls its main. Run directly
 * (`build/apps/transpose`), the kernel jumped to its address 0 and the
 * program died of a segmentation fault. hnm_mpi_program (apps/CMakeLists.txt)
 * links every smpicc program with this file, the system's dynamic loader as
 * its interpreter (HNM_SMPI_INTERP, read from /bin/sh at configure time) and
 * hnm__standalone as its entry point, which says what to do instead and
 * exits 2. dlopen ignores both: under smpirun nothing changes. */
#include <unistd.h>

#ifndef HNM_SMPI_INTERP
#error "HNM_SMPI_INTERP: the dynamic loader's path, given by apps/CMakeLists.txt"
#endif

const char hnm__interp[] __attribute__((section(".interp"))) = HNM_SMPI_INTERP;

/* Entered by a jump, not a call: the stack is realigned, and it never
 * returns. Only write(2) and _exit(2): main's arguments are not known. */
__attribute__((force_align_arg_pointer, noreturn, used)) void hnm__standalone(void)
{
  static const char msg[] = "this program was built by smpicc to run inside SimGrid's SMPI: run it with hnm-run "
                            "(or smpirun); NAME-mpi is the same program for mpirun\n";
  (void)!write(2, msg, sizeof msg - 1);
  _exit(2);
}
