/* hnm_ports.h -- LogGPS messages through network ports (plain C, no SimGrid).
 *
 * Ino et al.'s LogGPS, as Degomme et al. 2013 (Figure 1) describe it, is a
 * single-port model: "a processor can only be involved in at most one
 * communication at a time". This module times one message of k bytes
 * (k = the user's payload) from the instant SimGrid starts its transfer (both
 * sides posted, or an eager send posted), in four phases:
 *
 *   head: before the data leaves: 0 for an eager message (k <= S); above S
 *         the rendez-vous handshake and the sender's per-byte overhead;
 *   port: the time the data holds a port, W(k) = k g for k < s,
 *         s g + (k - s) G otherwise (Figure 1's T2 minus L);
 *   wire: L, between the sender's port and the receiver's;
 *   rest: after the data is in: 0 for an eager message (SMPI charges the
 *         receiver's o + k Or in MPI_Recv); o + k Or above S.
 *
 * and serialises the port phases of the messages that use a port:
 *
 *   HNM_PORTS_SINGLE: one port per node, for its sends and its receives;
 *                     a message holds the sender's and the receiver's port
 *                     at once (the paper: a node is "involved in at most one
 *                     communication at a time"; both directions of an
 *                     exchange strictly alternate);
 *   HNM_PORTS_DUPLEX: a send port and a receive port per node, taken one
 *                     after the other as in LogGOPSim's host model: the send
 *                     port when the data leaves, the receive port when it
 *                     arrives, L later;
 *   HNM_PORTS_MULTI:  no port: every message has the whole 1/G to itself.
 *
 * Rule (hnm_ports_transfer()), for a message from node a to node b whose
 * transfer starts at `now`, with hold = max(W(k), gap):
 *   single: s = max(now + head, free(a), free(b)); both ports free at s + hold;
 *           delivered at s + L + W(k) + rest.
 *   duplex: s = max(now + head, free(a's send port)); free at s + hold;
 *           r = max(s + L, free(b's receive port));   free at r + hold;
 *           delivered at r + W(k) + rest.
 *   multi:  delivered at now + head + L + W(k) + rest.
 * Ports are taken in the order the transfers start (first come, first
 * served, no back-filling of idle time), and two messages through one port
 * start at least `gap` apart (LogGP's per-message g). Each call is O(1); the
 * port state is two doubles per node, owned by the caller.
 */
#ifndef HNM_PORTS_H
#define HNM_PORTS_H

#ifdef __cplusplus
extern "C" {
#endif

enum hnm_ports {
  HNM_PORTS_SINGLE = 0, /* one port per node (the paper's LogGPS; default) */
  HNM_PORTS_DUPLEX = 1, /* a send port and a receive port per node (LogGOPSim) */
  HNM_PORTS_MULTI  = 2  /* no serialisation: contention-free */
};

/* "single", "duplex", "multi". */
const char *hnm_ports_name(enum hnm_ports p);
/* Parse one of the names above; returns 0, or -1 if the word is unknown. */
int hnm_ports_parse(const char *word, enum hnm_ports *out);

/* The LogGPS parameters (SI units: seconds, seconds per byte, bytes). */
struct hnm_loggps {
  double L, o;   /* seconds */
  double g, G;   /* seconds per byte, below / from s */
  double s, S;   /* bytes: the g/G switch, the eager/rendez-vous switch */
  double Os, Or; /* seconds per byte, sender / receiver overhead */
  double gap;    /* seconds between the starts of two messages through one port */
  enum hnm_ports ports;
  int from_route; /* 1: L, g and G are each message's route's (its latency,
                   * 1 / its narrowest bandwidth), filled in by the caller */
};

/* The phases of one message, seconds (see the top of this file). */
struct hnm_phases {
  double head_s;
  double port_s;
  double wire_s;
  double rest_s;
};

/* Phases of a message of k payload bytes. from_isend: the message is a
 * rendez-vous (k > S) posted by MPI_Isend, which has already charged the
 * sender o (Figure 1(c)); the handshake is then o shorter. */
void hnm_loggps_phases(const struct hnm_loggps *p, double k, int from_isend, struct hnm_phases *out);

/* The ports of one node: absolute simulated instants (seconds) at which each
 * port is free again. free_at[0] is the single port, or the send port in
 * duplex mode; free_at[1] the receive port in duplex mode. Start at 0. */
struct hnm_node_ports {
  double free_at[2];
};

/* Reserve the ports of a message from node src to node dst (may be the same
 * node) whose transfer starts at `now` (seconds), and return the transfer's
 * duration in seconds: delivered at now + the result. In multi mode src and
 * dst are not used (may be NULL). */
double hnm_ports_transfer(const struct hnm_loggps *p, struct hnm_node_ports *src, struct hnm_node_ports *dst,
                          double now, const struct hnm_phases *ph);

#ifdef __cplusplus
}
#endif

#endif /* HNM_PORTS_H */
