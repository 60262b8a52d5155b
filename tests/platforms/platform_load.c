/* platform_load -- load a platform file in SimGrid and describe it.
 *
 *   platform_load FILE                 print "hosts N links M"
 *   platform_load FILE SRC DST [...]   also print, for each host pair, the
 *                                      route "SRC -> DST: link link ..."
 *
 * Used by tests/platforms/golden.sh (every golden file must load, with the
 * expected host count) and bench/platforms.sh (load time). SimGrid aborts
 * with its own message if the file does not load.
 */
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#include <stdio.h>

static int print_route(const char *src_name, const char *dst_name)
{
  const_sg_host_t src = sg_host_by_name(src_name);
  const_sg_host_t dst = sg_host_by_name(dst_name);
  if (src == NULL || dst == NULL) {
    fprintf(stderr, "platform_load: no host named '%s'\n", src == NULL ? src_name : dst_name);
    return -1;
  }
  xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
  sg_host_get_route(src, dst, links);
  printf("%s -> %s:", src_name, dst_name);
  unsigned int i;
  sg_link_t link;
  xbt_dynar_foreach (links, i, link)
    printf(" %s", sg_link_get_name(link));
  printf("\n");
  xbt_dynar_free(&links);
  return 0;
}

int main(int argc, char **argv)
{
  simgrid_init(&argc, argv);
  if (argc < 2 || argc % 2 != 0) {
    fprintf(stderr, "Usage: %s PLATFORM.xml [SRC DST]...\n", argv[0]);
    return 2;
  }
  simgrid_load_platform(argv[1]);
  simgrid_run(); /* no actor: seals the platform (a DijkstraZone numbers its graph then) and returns */
  printf("hosts %zu links %zu\n", sg_host_count(), sg_link_count());
  for (int i = 2; i + 1 < argc; i += 2)
    if (print_route(argv[i], argv[i + 1]) != 0)
      return 1;
  return 0;
}
