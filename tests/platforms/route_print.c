/* route_print -- print the links SimGrid routes between pairs of hosts.
 *
 *   route_print PLATFORM.xml SRC DST [SRC DST ...]
 *
 * One line per pair: "SRC DST N link1 link2 ... linkN", the links in route
 * order, as SimGrid 3.32 computes them (sg_host_get_route). Unknown hosts:
 * a message and exit status 2.
 */
#include "sg_routes.h"

#include <stdio.h>

int main(int argc, char **argv)
{
  simgrid_init(&argc, argv);
  if (argc < 4 || (argc - 2) % 2 != 0) {
    fprintf(stderr, "usage: route_print PLATFORM.xml SRC DST [SRC DST ...]\n");
    return 2;
  }
  sg_routes_load(argv[1]);
  for (int i = 2; i + 1 < argc; i += 2) {
    sg_host_t src, dst;
    if (sg_routes_hosts("route_print", argv[i], argv[i + 1], &src, &dst) != 0)
      return 2;
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sg_routes_get(src, dst, links);
    printf("%s %s %lu", argv[i], argv[i + 1], xbt_dynar_length(links));
    sg_routes_print_links(links);
    xbt_dynar_free(&links);
  }
  return 0;
}
