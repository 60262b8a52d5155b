/* hnm_home.h -- where hnm's own files are, found at run time.
 *
 * hnm is relocatable: no source or build path is compiled in. Its files sit
 * under one prefix, the "home", in the layout of an installation
 * (cmake --install build --prefix P):
 *
 *   P/bin/                  hnm-run, hnm-compare, hnm-calibrate, ...
 *   P/lib/libhnm.so         the SimGrid plugin
 *   P/libexec/hnm/          the MPI programs (apps/): calibrate, transpose, ...
 *   P/share/hnm/models/     bundled models and hnm-model.dtd
 *   P/share/hnm/platforms/  default.xml, default.hosts
 *
 * The build tree has the same layout (build/share/hnm and build/libexec/hnm
 * are links into the source and build trees made by CMake), so the tools
 * work from build/bin unchanged.
 *
 * The home is, in order: $HNM_HOME if set and not empty; else the nearest of
 * the first three ancestors of the directory holding the running code that
 * has a share/hnm directory. "The running code" is the shared library this
 * module is linked into (libhnm.so inside SimGrid's process, found with
 * dladdr) or else the executable (/proc/self/exe): P/bin/hnm-run and
 * P/lib/libhnm.so give P, P/libexec/hnm/calibrate gives P, a test in
 * build/tests/unit gives build.
 */
#ifndef HNM_HOME_H
#define HNM_HOME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Paths relative to the home. */
#define HNM_HOME_BIN "bin"
#define HNM_HOME_PLUGIN "lib/libhnm.so"
#define HNM_HOME_APPS "libexec/hnm"
#define HNM_HOME_MODELS "share/hnm/models"
#define HNM_HOME_PLATFORMS "share/hnm/platforms"

/* The home directory (no trailing '/'), computed once; NULL if $HNM_HOME is
 * unset and no ancestor of the running code has share/hnm. Owned by the
 * module: do not free. */
const char *hnm_home(void);

/* Writes HOME/rel into buf (len bytes). Returns 0, or -1 if there is no home
 * or the path does not fit (buf then holds a message for the user, naming
 * $HNM_HOME). */
int hnm_home_path(char *buf, size_t len, const char *rel);

/* HOME/rel as a new string (free with free()); when there is no home, the
 * literal "$HNM_HOME/rel", so that an error naming the missing file says
 * what to set. NULL only when out of memory. */
char *hnm_home_file(const char *rel);

#ifdef __cplusplus
}
#endif

#endif /* HNM_HOME_H */
