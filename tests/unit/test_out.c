/* test_out.c -- the one output rule of core's writer (core/hnm_out.h): an
 * output that is a registered input -- the same path, a symbolic link to it,
 * a hard link to it -- is refused by hnm_out_open(), hnm_out_check(),
 * hnm_out_regular() and hnm_out_dir_open() with the message naming both, and
 * the input is left byte for byte; other files, new paths and "-" pass;
 * hnm_out_regular() refuses a FIFO (which would block a child or a reader)
 * and a device. Expected messages are written out here by hand.
 * Prints "N passed, M failed"; exits non-zero if anything failed. */
#define _DEFAULT_SOURCE /* mkdtemp, symlink */
#include "check.h"
#include "hnm_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];
static char path_buf[8][160];

static const char *at(int i, const char *name)
{
  snprintf(path_buf[i], sizeof path_buf[i], "%s/%s", dir, name);
  return path_buf[i];
}

static int content_is(const char *path, const char *want)
{
  char got[64] = "";
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return 0;
  size_t n = fread(got, 1, sizeof got - 1, f);
  got[n] = '\0';
  fclose(f);
  return strcmp(got, want) == 0;
}

static int write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  if (f == NULL)
    return -1;
  fputs(text, f);
  return fclose(f);
}

int main(void)
{
  char err[512], want[512];
  snprintf(dir, sizeof dir, "/tmp/hnm-test-out.XXXXXX");
  if (mkdtemp(dir) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  const char *plat = at(0, "plat.xml");
  const char *soft = at(1, "soft.xml");
  const char *hard = at(2, "hard.xml");
  const char *other = at(3, "other.xml");
  const char *fresh = at(4, "new.csv");
  const char *fifo = at(5, "fifo");
  CHECK(write_file(plat, "<platform/>\n") == 0);
  CHECK(write_file(other, "other\n") == 0);
  CHECK(symlink("plat.xml", soft) == 0);
  CHECK(link(plat, hard) == 0);
  CHECK(mkfifo(fifo, 0600) == 0);

  /* Nothing registered: everything passes as before. */
  CHECK_EQ(hnm_out_not_input(plat, "-o", err, sizeof err), 0);
  /* Registering: "-", NULL and missing paths are ignored. */
  CHECK_EQ(hnm_out_input("-", "-hostfile", err, sizeof err), 0);
  CHECK_EQ(hnm_out_input(NULL, "-hostfile", err, sizeof err), 0);
  CHECK_EQ(hnm_out_input(at(6, "missing"), "-hostfile", err, sizeof err), 0);
  CHECK_EQ(hnm_out_input(plat, "-platform", err, sizeof err), 0);

  const char *same[] = {plat, soft, hard};
  for (size_t i = 0; i < 3; i++) {
    snprintf(want, sizeof want, "-o: '%s' is -platform '%s': writing it would destroy it", same[i], plat);
    err[0] = '\0';
    CHECK_EQ(hnm_out_not_input(same[i], "-o", err, sizeof err), -1);
    CHECK_STREQ(err, want);
    err[0] = '\0';
    CHECK(hnm_out_open(same[i], "-o", err, sizeof err) == NULL);
    CHECK_STREQ(err, want);
    err[0] = '\0';
    CHECK_EQ(hnm_out_check(same[i], "-o", err, sizeof err), -1);
    CHECK_STREQ(err, want);
    err[0] = '\0';
    CHECK_EQ(hnm_out_regular(same[i], "-o", err, sizeof err), -1);
    CHECK_STREQ(err, want);
    CHECK(hnm_out_dir_open(same[i], "--report", err, sizeof err) == NULL);
  }
  CHECK(content_is(plat, "<platform/>\n"));
  struct stat st;
  CHECK(lstat(soft, &st) == 0 && S_ISLNK(st.st_mode));

  /* Other files, new paths, "-": accepted, and written. */
  CHECK_EQ(hnm_out_not_input(other, "-o", err, sizeof err), 0);
  CHECK_EQ(hnm_out_not_input(fresh, "-o", err, sizeof err), 0);
  CHECK_EQ(hnm_out_not_input("-", "-o", err, sizeof err), 0);
  hnm_out *o = hnm_out_open(other, "-o", err, sizeof err);
  CHECK(o != NULL);
  if (o != NULL) {
    fputs("new\n", hnm_out_file(o));
    CHECK_EQ(hnm_out_commit(o, err, sizeof err), 0);
  }
  CHECK(content_is(other, "new\n"));
  CHECK_EQ(hnm_out_regular(fresh, "-o", err, sizeof err), 0);

  /* hnm_out_regular: a FIFO and a device are refused, said why. */
  snprintf(want, sizeof want, "-o: '%s': not a regular file (a FIFO would block)", fifo);
  CHECK_EQ(hnm_out_regular(fifo, "-o", err, sizeof err), -1);
  CHECK_STREQ(err, want);
  CHECK_EQ(hnm_out_regular("/dev/null", "-o", err, sizeof err), -1);
  CHECK_STREQ(err, "-o: '/dev/null': not a regular file (a device or socket cannot take it)");
  /* ... while hnm_out_check still takes a device (written through). */
  CHECK_EQ(hnm_out_check("/dev/null", "-o", err, sizeof err), 0);

  /* Cleared: the platform is an output like any other again. */
  hnm_out_inputs_clear();
  CHECK_EQ(hnm_out_not_input(plat, "-o", err, sizeof err), 0);

  unlink(plat), unlink(soft), unlink(hard), unlink(other), unlink(fresh), unlink(fifo);
  rmdir(dir);
  return check_finish();
}
