/* hnm-hosts -- load a SimGrid platform the way smpirun will and list its hosts.
 *
 *   hnm-hosts PLATFORM
 *
 * Prints one summary line, "# hosts=H fatpipe=F limiters=L", then the H host
 * names, one per line. F counts the links other than loopbacks that SimGrid
 * shares as FATPIPE (never saturating: SimGrid 3.32's network/optim:Lazy mishandles them,
 * docs/models.md), L the node limiter links (NAME_limiter beside NAME_UP or
 * NAME, the links hnm's models resize or lift). hnm-run runs it before
 * smpirun so that a platform SimGrid cannot load, and a hostfile naming hosts
 * the platform does not have, are refused with one line instead of a
 * simulator abort. SimGrid reports a platform it cannot load by an exception
 * that this C program does not catch: the process then prints SimGrid's
 * message on stderr and aborts, and hnm-run turns that message into its one
 * line. Exit status: 0 loaded, 2 usage, other: SimGrid refused the platform.
 */
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_names(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int has_name(const char **names, size_t n, const char *name)
{
  return bsearch(&name, names, n, sizeof *names, compare_names) != NULL;
}

/* SimGrid's loopback links (a cluster's NAME_loopback, a zone's
 * __loopback__) are FATPIPE but alone on same-host routes: they share nothing
 * with other links, so the lazy update has nothing to get wrong there. */
static int is_loopback(const char *name)
{
  static const char suffix[] = "_loopback";
  size_t len = strlen(name), sl = sizeof suffix - 1;
  return strcmp(name, "__loopback__") == 0 || (len >= sl && strcmp(name + len - sl, suffix) == 0);
}

/* The same rule as the plugin's node_limiter_base_bandwidth(). */
static int is_node_limiter(const char **names, size_t n, const char *name)
{
  static const char suffix[] = "_limiter";
  size_t len = strlen(name), sl = sizeof suffix - 1;
  if (len <= sl || strcmp(name + len - sl, suffix) != 0)
    return 0;
  char *base = malloc(len + 4);
  if (base == NULL)
    return 0;
  memcpy(base, name, len - sl);
  base[len - sl] = '\0';
  int found = has_name(names, n, base);
  strcpy(base + len - sl, "_UP");
  found = found || has_name(names, n, base);
  free(base);
  return found;
}

int main(int argc, char **argv)
{
  if (argc != 2 || argv[1][0] == '-') {
    fprintf(stderr, "Usage: hnm-hosts PLATFORM\n"
                    "Load a SimGrid platform (XML or .so) and print '# hosts=H fatpipe=F limiters=L'\n"
                    "then its host names, one per line.\n");
    return argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) ? 0 : 2;
  }
  /* Only errors, without source locations: the first line is the reason. */
  char *sg_argv[] = {argv[0], "--log=root.thres:error", "--log=no_loc", NULL};
  int sg_argc = 3;
  simgrid_init(&sg_argc, sg_argv);
  simgrid_load_platform(argv[1]);

  size_t nl = sg_link_count();
  sg_link_t *links = sg_link_list();
  const char **names = malloc((nl ? nl : 1) * sizeof *names);
  if (names == NULL)
    return 1;
  for (size_t i = 0; i < nl; i++)
    names[i] = sg_link_get_name(links[i]);
  qsort(names, nl, sizeof *names, compare_names);
  size_t fatpipe = 0, limiters = 0;
  for (size_t i = 0; i < nl; i++) {
    if (!sg_link_is_shared(links[i]) && !is_loopback(sg_link_get_name(links[i])))
      fatpipe++;
    if (is_node_limiter(names, nl, sg_link_get_name(links[i])))
      limiters++;
  }
  size_t nh = sg_host_count();
  sg_host_t *hosts = sg_host_list();
  printf("# hosts=%zu fatpipe=%zu limiters=%zu\n", nh, fatpipe, limiters);
  for (size_t i = 0; i < nh; i++)
    puts(sg_host_get_name(hosts[i]));
  free(names);
  free(hosts);
  free(links);
  return fflush(stdout) == 0 ? 0 : 1;
}
