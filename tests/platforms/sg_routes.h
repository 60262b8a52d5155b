/* sg_routes.h -- what the route printers of tests/platforms share
 * (platform_load, route_print, route_dump): a platform loaded and sealed,
 * host pairs looked up, a route's links printed. */
#ifndef SG_ROUTES_H
#define SG_ROUTES_H

#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#include <stdio.h>

/* Load FILE; with no actor, simgrid_run() seals the platform (a
 * DijkstraZone numbers its graph then) and returns. */
static inline void sg_routes_load(const char *file)
{
  simgrid_load_platform(file);
  simgrid_run();
}

/* The hosts named A and B, or -1 after "PROG: no host named 'X'". */
static inline int sg_routes_hosts(const char *prog, const char *a, const char *b, sg_host_t *src, sg_host_t *dst)
{
  *src = sg_host_by_name(a);
  *dst = sg_host_by_name(b);
  if (*src == NULL || *dst == NULL) {
    fprintf(stderr, "%s: no host named '%s'\n", prog, *src == NULL ? a : b);
    return -1;
  }
  return 0;
}

/* The route from SRC to DST into LINKS (emptied first). */
static inline void sg_routes_get(sg_host_t src, sg_host_t dst, xbt_dynar_t links)
{
  xbt_dynar_reset(links);
  sg_host_get_route(src, dst, links);
}

/* " link1 link2 ...", then the end of the line. */
static inline void sg_routes_print_links(xbt_dynar_t links)
{
  unsigned int k;
  sg_link_t link;
  xbt_dynar_foreach (links, k, link)
    printf(" %s", sg_link_get_name(link));
  printf("\n");
}

#endif
