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
#include "sg_routes.h"

#include <stdio.h>

static int print_route(const char *src_name, const char *dst_name)
{
  sg_host_t src, dst;
  if (sg_routes_hosts("platform_load", src_name, dst_name, &src, &dst) != 0)
    return -1;
  xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
  sg_routes_get(src, dst, links);
  printf("%s -> %s:", src_name, dst_name);
  sg_routes_print_links(links);
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
  sg_routes_load(argv[1]);
  printf("hosts %zu links %zu\n", sg_host_count(), sg_link_count());
  for (int i = 2; i + 1 < argc; i += 2)
    if (print_route(argv[i], argv[i + 1]) != 0)
      return 1;
  return 0;
}
