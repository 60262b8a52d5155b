/* route_dump -- every route of a platform, as SimGrid computes it.
 *
 *   route_dump PLATFORM.xml
 *
 * One line per ordered pair of hosts (the source, then the destination, in
 * SimGrid's host order; a host to itself included): "SRC DST LATENCY link1
 * ... linkN", the latency in seconds (%.17g) and the links in route order
 * (sg_host_get_route). Two platforms route alike iff their dumps are equal
 * byte for byte. H hosts make H x H lines: for small platforms.
 */
#include "sg_routes.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  simgrid_init(&argc, argv);
  if (argc != 2) {
    fprintf(stderr, "usage: route_dump PLATFORM.xml\n");
    return 2;
  }
  sg_routes_load(argv[1]);
  size_t n = sg_host_count();
  sg_host_t *hosts = sg_host_list();
  xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      sg_routes_get(hosts[i], hosts[j], links);
      printf("%s %s %.17g", sg_host_get_name(hosts[i]), sg_host_get_name(hosts[j]),
             sg_host_get_route_latency(hosts[i], hosts[j]));
      sg_routes_print_links(links);
    }
  xbt_dynar_free(&links);
  free(hosts);
  return 0;
}
