/* hnm_mutate -- write one mutant of a seed file (AFL-style havoc), for
 * tests/reliability/fuzz.sh.
 *
 *   hnm_mutate SEED_FILE OUT_FILE RNG_SEED
 *
 * Applies 1 to 8 random edits: flip a bit, set a byte to an interesting
 * value, insert an interesting token (huge, negative, fractional, infinite
 * numbers, XML and CSV syntax), delete or duplicate a range, truncate. The
 * same arguments always give the same mutant, so a failure is replayable. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;

static uint64_t next(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static size_t below(size_t n) { return n ? (size_t)(next() % n) : 0; }

int main(int argc, char **argv)
{
  if (argc != 4) {
    fprintf(stderr, "usage: hnm_mutate SEED_FILE OUT_FILE RNG_SEED\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (f == NULL) {
    perror(argv[1]);
    return 2;
  }
  size_t cap = 1 << 20, n = 0;
  unsigned char *buf = malloc(cap * 2 + 4096);
  if (buf == NULL)
    return 2;
  n = fread(buf, 1, cap, f);
  fclose(f);
  rng = strtoull(argv[3], NULL, 10) * 0x9E3779B97F4A7C15ull + 1;

  static const char *const tokens[] = {"1e300", "-1", "0", "1e-320", "inf", "nan", "2147483648", "9e18", "1420.5",
                                       "-0", "1e20", "\"", "<", ">", "</", "/>", "&", "&#0;", "<!--", "]]>", ",",
                                       ":", "\n", "\r\n", " ", "\t", "s", "Bps", "KiB", "us", "none", "off",
                                       "99999999999999999999999", "0x10", "\xff\xfe", ""};
  static const unsigned char bytes[] = {0, 0xff, 0x80, '<', '>', '"', ':', ',', '\n', '9', '-', '.', 'e', ' ', '/'};
  int edits = 1 + (int)below(8);
  for (int e = 0; e < edits; e++) {
    size_t at = below(n + 1);
    switch (below(7)) {
    case 0: /* flip a bit */
      if (n)
        buf[below(n)] ^= (unsigned char)(1u << below(8));
      break;
    case 1: /* interesting byte */
      if (n)
        buf[below(n)] = bytes[below(sizeof bytes)];
      break;
    case 2: { /* insert a token */
      const char *t = tokens[below(sizeof tokens / sizeof tokens[0])];
      size_t l = strlen(t);
      if (n + l <= cap * 2) {
        memmove(buf + at + l, buf + at, n - at);
        memcpy(buf + at, t, l);
        n += l;
      }
      break;
    }
    case 3: { /* delete a range */
      size_t l = below(n - at < 64 ? n - at + 1 : 64);
      memmove(buf + at, buf + at + l, n - at - l);
      n -= l;
      break;
    }
    case 4: { /* duplicate a range */
      size_t l = below(n - at < 256 ? n - at + 1 : 256);
      if (n + l <= cap * 2) {
        memmove(buf + at + l, buf + at, n - at);
        n += l;
      }
      break;
    }
    case 5: /* truncate */
      if (below(4) == 0)
        n = at;
      break;
    default: /* replace a digit run's digit by another digit */
      for (size_t i = at; i < n; i++)
        if (buf[i] >= '0' && buf[i] <= '9') {
          buf[i] = (unsigned char)('0' + below(10));
          break;
        }
      break;
    }
  }
  f = fopen(argv[2], "wb");
  if (f == NULL || fwrite(buf, 1, n, f) != n || fclose(f) != 0) {
    perror(argv[2]);
    return 2;
  }
  free(buf);
  return 0;
}
