/* route_print -- print the links SimGrid routes between pairs of hosts.
 *
 *   route_print PLATFORM.xml SRC DST [SRC DST ...]
 *
 * One line per pair: "SRC DST N link1 link2 ... linkN", the links in route
 * order, as SimGrid 3.32 computes them (sg_host_get_route). Unknown hosts:
 * a message and exit status 2.
 */
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#include <stdio.h>

int main(int argc, char **argv)
{
  simgrid_init(&argc, argv);
  if (argc < 4 || (argc - 2) % 2 != 0) {
    fprintf(stderr, "usage: route_print PLATFORM.xml SRC DST [SRC DST ...]\n");
    return 2;
  }
  simgrid_load_platform(argv[1]);
  simgrid_run(); /* no actor: seals the platform (a DijkstraZone numbers its graph then) and returns */
  for (int i = 2; i + 1 < argc; i += 2) {
    sg_host_t src = sg_host_by_name(argv[i]), dst = sg_host_by_name(argv[i + 1]);
    if (src == NULL || dst == NULL) {
      fprintf(stderr, "route_print: no host named '%s'\n", src == NULL ? argv[i] : argv[i + 1]);
      return 2;
    }
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sg_host_get_route(src, dst, links);
    printf("%s %s %lu", argv[i], argv[i + 1], xbt_dynar_length(links));
    unsigned int n;
    sg_link_t link;
    xbt_dynar_foreach (links, n, link)
      printf(" %s", sg_link_get_name(link));
    printf("\n");
    xbt_dynar_free(&links);
  }
  return 0;
}
