/* hnm_route_observer.h -- the size and route of every message, for hnm's
 * platform library.
 *
 * SimGrid 3.32 asks a zone for a route before it knows the message, and has
 * no signal that gives a communication's size when it starts. libhnm.so
 * learns both when it prices the message (its bandwidth-factor callback,
 * once per communication, with the forward route). UGAL's backlog in
 * libhnmplatform.so needs exactly that, so libhnm.so exports this setter;
 * the platform library, loaded after it in the same process, finds it with
 * dlsym(RTLD_DEFAULT, HNM_ROUTE_OBSERVER_SET) and registers one observer.
 */
#ifndef HNM_ROUTE_OBSERVER_H
#define HNM_ROUTE_OBSERVER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* bytes: SimGrid's size of the message; links: its forward route, as
 * simgrid::s4u::Link pointers (count of them). */
typedef void (*hnm_route_observer_fn)(void *ctx, double bytes, void *const *links, size_t count);

/* Replace the observer (fn NULL: none). Exported by libhnm.so. */
void hnm_route_observer_set(hnm_route_observer_fn fn, void *ctx);
#define HNM_ROUTE_OBSERVER_SET "hnm_route_observer_set"

#ifdef __cplusplus
}
#endif

#endif /* HNM_ROUTE_OBSERVER_H */
