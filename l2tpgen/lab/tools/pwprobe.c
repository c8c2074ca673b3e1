/*
 * pwprobe: the lab's attacker and witness on the L2TPv3 data plane (runs inside the QEMU guest).
 *
 * The guest has no Python and no packet crafting tool: this is built with `gcc -static -O2` when
 * the lab's initramfs is built, and only ever runs inside that throwaway VM.
 *
 *   pwprobe forge SRC DST SESSION COOKIEHEX COUNT MARKER [SUBLAYER [VLAN]]
 *       COUNT L2TPv3-over-IP packets (IP protocol 115, RFC 3931 section 4.1.1.2) from SRC to DST:
 *       session ID SESSION, the cookie COOKIEHEX ("-" for none), the 4-byte default L2-specific
 *       sublayer when SUBLAYER is "sublayer" (RFC 4719 section 4.6: S bit and sequence number
 *       0; "-" for none), carrying an Ethernet broadcast frame whose payload repeats MARKER,
 *       802.1Q-tagged with VLAN when given ("-" or absent: untagged), as the far end frames the
 *       pseudowire. SRC may be any address (IP_HDRINCL): the sender's own or a spoofed one.
 *   pwprobe watch IFACE MARKERS [PROTO SRC DST MINLEN SAVEFILE]
 *       Count, on IFACE, until SIGTERM, then print one line per figure:
 *         frames N; ipv4 N; l2tp N (IP protocol 115); esp N (50); ike N (UDP 500/4500);
 *         hit:MARKER N and sent:MARKER N for each comma-separated MARKER (frames holding it
 *         the interface received, and sent); saved N, and "end".
 *       A marker written "until:MARKER" is counted too, and the watcher stops by itself after
 *       the first received frame holding it (a sentinel sent after what is being counted).
 *       With SAVEFILE, also l2tp_pair and esp_pair: those between SRC and DST, either way
 *       (the pair under test; other pairs' traffic may share the link). And the first IPv4 packet of protocol PROTO from SRC to DST at least MINLEN
 *       bytes long is written to SAVEFILE (the IP packet, header included), for `replay`.
 *       Prints "ready" on stderr once the socket is bound.
 *   pwprobe replay FILE COUNT
 *       Send the IPv4 packet in FILE, unchanged, COUNT times (a raw socket with IP_HDRINCL).
 *   pwprobe inject IFACE SRC DST SESSION COOKIEHEX SUBLAYER COUNT MARKER
 *       The independent attacker's sender (adversary.py): COUNT L2TPv3 data messages to DST, an
 *       IPv4 or IPv6 address, unicast, broadcast or multicast (SO_BROADCAST; IFACE, or "-",
 *       is the device sent from: SO_BINDTODEVICE, and the scope of an IPv6 link-local or
 *       multicast DST). SRC "-" sends from the sender's own address (a raw socket of protocol
 *       115, the kernel writes the IP header); an IPv4 SRC is spoofed (IP_HDRINCL). COOKIEHEX
 *       as for forge; SUBLAYER "seq" adds RFC 3931's default L2-Specific Sublayer with the S
 *       bit and sequence numbers 1, 2, ... ("-": none). Prints "sent N".
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_MARKERS 128
#define FRAME_MAX 65536

static volatile sig_atomic_t stop;

static void on_term(int sig) {
    (void)sig;
    stop = 1;
}

static int die(const char *what) {
    fprintf(stderr, "pwprobe: %s: %s\n", what, strerror(errno));
    return 2;
}

static uint16_t checksum(const void *data, size_t len) {
    const uint8_t *p = data;
    uint32_t sum = 0;
    for (size_t i = 0; i + 1 < len; i += 2) sum += (uint32_t)(p[i] << 8 | p[i + 1]);
    if (len & 1) sum += (uint32_t)(p[len - 1] << 8);
    while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
    return (uint16_t)~sum;
}

static int send_raw(const uint8_t *packet, size_t len, int count) {
    int fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW); /* IPPROTO_RAW implies IP_HDRINCL */
    if (fd < 0) return die("socket");
    struct sockaddr_in to = {.sin_family = AF_INET};
    memcpy(&to.sin_addr, packet + 16, 4);
    int sent = 0;
    for (int i = 0; i < count; i++) {
        if (sendto(fd, packet, len, 0, (struct sockaddr *)&to, sizeof to) == (ssize_t)len) sent++;
        usleep(20000);
    }
    close(fd);
    printf("sent %d\n", sent);
    return sent == count ? 0 : 1;
}

static int forge(int argc, char **argv) {
    int sublayer = argc > 6 && strcmp(argv[6], "sublayer") == 0;
    int vlan = argc > 7 && strcmp(argv[7], "-") != 0 ? atoi(argv[7]) : 0;
    struct in_addr src, dst;
    if (!inet_aton(argv[0], &src) || !inet_aton(argv[1], &dst)) {
        fprintf(stderr, "pwprobe: bad address\n");
        return 2;
    }
    uint32_t session = (uint32_t)strtoul(argv[2], NULL, 10);
    const char *cookie = argv[3];
    int count = atoi(argv[4]);
    const char *marker = argv[5];
    uint8_t packet[256] = {0};
    size_t n = 20;
    uint32_t be = htonl(session);
    memcpy(packet + n, &be, 4);
    n += 4;
    if (strcmp(cookie, "-") != 0) {
        size_t hex = strlen(cookie);
        if (hex != 8 && hex != 16) {
            fprintf(stderr, "pwprobe: a cookie is 4 or 8 bytes (8 or 16 hex digits)\n");
            return 2;
        }
        for (size_t i = 0; i < hex / 2; i++) {
            unsigned byte;
            sscanf(cookie + 2 * i, "%2x", &byte);
            packet[n++] = (uint8_t)byte;
        }
    }
    if (sublayer) n += 4; /* the default L2-specific sublayer: all zero, no sequence number */
    /* The inner Ethernet frame: broadcast, a locally administered source, the IEEE local
     * experimental EtherType 0x88b5, then the marker repeated (at least 46 bytes of payload). */
    static const uint8_t eth[12] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                    0x02, 0x00, 0x00, 0x00, 0x00, 0x66};
    memcpy(packet + n, eth, sizeof eth);
    n += sizeof eth;
    if (vlan > 0) { /* 802.1Q: TPID 0x8100, then the VLAN ID (priority 0) */
        packet[n++] = 0x81;
        packet[n++] = 0x00;
        packet[n++] = (uint8_t)(vlan >> 8 & 0x0f);
        packet[n++] = (uint8_t)(vlan & 0xff);
    }
    packet[n++] = 0x88;
    packet[n++] = 0xb5;
    size_t mlen = strlen(marker);
    for (int i = 0; i < 6 && mlen > 0 && n + mlen < sizeof packet; i++) {
        memcpy(packet + n, marker, mlen);
        n += mlen;
    }
    while (n < 20 + 4 + 14 + 46 + 8) packet[n++] = 0;
    struct iphdr *ip = (struct iphdr *)packet;
    ip->version = 4;
    ip->ihl = 5;
    ip->ttl = 64;
    ip->protocol = 115;
    ip->tot_len = htons((uint16_t)n);
    ip->id = htons((uint16_t)(getpid() & 0xffff));
    ip->saddr = src.s_addr;
    ip->daddr = dst.s_addr;
    ip->check = htons(checksum(packet, 20));
    return send_raw(packet, n, count);
}

/* The L2TPv3 data message after the session ID's place: cookie, sublayer, Ethernet frame. */
static size_t l2tp_body(uint8_t *packet, size_t n, size_t cap, uint32_t session, const char *cookie,
                        uint32_t sublayer, const char *marker) {
    uint32_t be = htonl(session);
    memcpy(packet + n, &be, 4);
    n += 4;
    if (strcmp(cookie, "-") != 0) {
        for (size_t i = 0; i + 1 < strlen(cookie) && i / 2 < 8; i += 2) {
            unsigned byte;
            sscanf(cookie + i, "%2x", &byte);
            packet[n++] = (uint8_t)byte;
        }
    }
    if (sublayer) { /* RFC 3931 section 4.6: the default L2-Specific Sublayer, S bit set */
        be = htonl(0x40000000u | (sublayer & 0x00ffffffu));
        memcpy(packet + n, &be, 4);
        n += 4;
    }
    static const uint8_t eth[14] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0x00,
                                    0x00, 0x00, 0x00, 0x66, 0x88, 0xb5};
    memcpy(packet + n, eth, sizeof eth);
    n += sizeof eth;
    size_t mlen = strlen(marker);
    for (int i = 0; i < 6 && mlen > 0 && n + mlen < cap; i++) {
        memcpy(packet + n, marker, mlen);
        n += mlen;
    }
    return n;
}

/* inject IFACE SRC DST SESSION COOKIEHEX SUBLAYER COUNT MARKER: see the usage at the top. */
static int inject(char **argv) {
    const char *iface = argv[0], *src = argv[1], *dst = argv[2];
    uint32_t session = (uint32_t)strtoul(argv[3], NULL, 10);
    const char *cookie = argv[4];
    int sublayer = strcmp(argv[5], "seq") == 0;
    int count = atoi(argv[6]);
    const char *marker = argv[7];
    if (strcmp(cookie, "-") != 0 && strlen(cookie) != 8 && strlen(cookie) != 16) {
        fprintf(stderr, "pwprobe: a cookie is 4 or 8 bytes (8 or 16 hex digits)\n");
        return 2;
    }
    struct sockaddr_storage to = {0};
    socklen_t tolen;
    int family, hdrincl = strcmp(src, "-") != 0;
    struct sockaddr_in *to4 = (struct sockaddr_in *)&to;
    struct sockaddr_in6 *to6 = (struct sockaddr_in6 *)&to;
    struct in_addr src4 = {0};
    if (inet_pton(AF_INET, dst, &to4->sin_addr) == 1) {
        family = AF_INET, to4->sin_family = AF_INET, tolen = sizeof *to4;
        if (hdrincl && !inet_aton(src, &src4)) {
            fprintf(stderr, "pwprobe: bad source address\n");
            return 2;
        }
    } else if (inet_pton(AF_INET6, dst, &to6->sin6_addr) == 1 && !hdrincl) {
        family = AF_INET6, to6->sin6_family = AF_INET6, tolen = sizeof *to6;
        if (strcmp(iface, "-") != 0) to6->sin6_scope_id = if_nametoindex(iface);
    } else {
        fprintf(stderr, "pwprobe: bad destination (IPv6 is sent from the own address only)\n");
        return 2;
    }
    int fd = hdrincl ? socket(AF_INET, SOCK_RAW, IPPROTO_RAW) : socket(family, SOCK_RAW, 115);
    if (fd < 0) return die("socket");
    int on = 1;
    if (family == AF_INET) setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &on, sizeof on);
    if (strcmp(iface, "-") != 0 &&
        setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, iface, (socklen_t)strlen(iface) + 1) < 0)
        return die("SO_BINDTODEVICE");
    int sent = 0;
    for (int i = 0; i < count; i++) {
        uint8_t packet[512] = {0};
        size_t start = hdrincl ? 20 : 0;
        size_t n = l2tp_body(packet, start, sizeof packet, session, cookie,
                             sublayer ? (uint32_t)(i + 1) : 0, marker);
        while (n < start + 4 + 14 + 46) packet[n++] = 0;
        if (hdrincl) {
            struct iphdr *ip = (struct iphdr *)packet;
            ip->version = 4, ip->ihl = 5, ip->ttl = 64, ip->protocol = 115;
            ip->tot_len = htons((uint16_t)n);
            ip->id = htons((uint16_t)((getpid() + i) & 0xffff));
            ip->saddr = src4.s_addr;
            ip->daddr = to4->sin_addr.s_addr;
            ip->check = htons(checksum(packet, 20));
        }
        if (sendto(fd, packet, n, 0, (struct sockaddr *)&to, tolen) == (ssize_t)n) sent++;
        usleep(10000);
    }
    close(fd);
    printf("sent %d\n", sent);
    return 0; /* a destination that refuses (no route) shows as fewer sent, not as a failure */
}

static int replay(char **argv) {
    FILE *f = fopen(argv[0], "rb");
    if (!f) return die(argv[0]);
    static uint8_t packet[FRAME_MAX];
    size_t n = fread(packet, 1, sizeof packet, f);
    fclose(f);
    if (n < 20) {
        fprintf(stderr, "pwprobe: %s holds no IPv4 packet\n", argv[0]);
        return 2;
    }
    return send_raw(packet, n, atoi(argv[1]));
}

static int watch(int argc, char **argv) {
    const char *iface = argv[0];
    static char markers_text[8192];
    snprintf(markers_text, sizeof markers_text, "%s", argv[1]);
    char *markers[MAX_MARKERS];
    unsigned long hits[MAX_MARKERS] = {0}, sent[MAX_MARKERS] = {0};
    int nmarkers = 0, until = -1;
    for (char *tok = strtok(markers_text, ","); tok && nmarkers < MAX_MARKERS;
         tok = strtok(NULL, ",")) {
        if (strncmp(tok, "until:", 6) == 0) {
            tok += 6;
            until = nmarkers;
        }
        markers[nmarkers++] = tok;
    }
    int save_proto = -1;
    struct in_addr save_src = {0}, save_dst = {0};
    size_t save_min = 0;
    const char *save_file = NULL;
    if (argc >= 7) {
        save_proto = atoi(argv[2]);
        inet_aton(argv[3], &save_src);
        inet_aton(argv[4], &save_dst);
        save_min = (size_t)atol(argv[5]);
        save_file = argv[6];
    }
    int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
    if (fd < 0) return die("socket");
    struct sockaddr_ll ll = {.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL)};
    ll.sll_ifindex = (int)if_nametoindex(iface);
    if (ll.sll_ifindex == 0) return die(iface);
    if (bind(fd, (struct sockaddr *)&ll, sizeof ll) < 0) return die("bind");
    struct sigaction sa = {.sa_handler = on_term}; /* no SA_RESTART: recvfrom returns EINTR */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    fprintf(stderr, "ready\n");
    fflush(stderr);
    static uint8_t frame[FRAME_MAX];
    unsigned long frames = 0, ipv4 = 0, l2tp = 0, esp = 0, ike = 0, saved = 0;
    unsigned long l2tp_pair = 0, esp_pair = 0; /* between SRC and DST, either way */
    unsigned long l2tp6 = 0, l2tp_any = 0;      /* IPv6 next header 115; either family */
    while (!stop) {
        struct sockaddr_ll from;
        socklen_t fromlen = sizeof from;
        ssize_t len = recvfrom(fd, frame, sizeof frame, 0, (struct sockaddr *)&from, &fromlen);
        if (len < 0) {
            if (errno == EINTR) continue;
            return die("recvfrom");
        }
        frames++;
        for (int i = 0; i < nmarkers; i++) {
            if (!memmem(frame, (size_t)len, markers[i], strlen(markers[i]))) continue;
            if (from.sll_pkttype == PACKET_OUTGOING) {
                sent[i]++;
            } else {
                hits[i]++;
                if (i == until) stop = 1;
            }
        }
        if (ntohs(from.sll_protocol) == ETH_P_IPV6 && len >= 14 + 40 && frame[14 + 6] == 115)
            l2tp6++, l2tp_any++;
        if (ntohs(from.sll_protocol) != ETH_P_IP || len < 14 + 20) continue;
        const uint8_t *ip = frame + 14;
        size_t iplen = (size_t)len - 14;
        ipv4++;
        int proto = ip[9];
        size_t ihl = (size_t)(ip[0] & 0x0f) * 4;
        int pair = save_file && ((memcmp(ip + 12, &save_src, 4) == 0 &&
                                  memcmp(ip + 16, &save_dst, 4) == 0) ||
                                 (memcmp(ip + 12, &save_dst, 4) == 0 &&
                                  memcmp(ip + 16, &save_src, 4) == 0));
        if (proto == 115) l2tp++, l2tp_pair += pair, l2tp_any++;
        if (proto == 50) esp++, esp_pair += pair;
        if (proto == 17 && iplen >= ihl + 4) {
            int dport = ip[ihl + 2] << 8 | ip[ihl + 3];
            if (dport == 500 || dport == 4500) ike++;
        }
        if (save_file && !saved && proto == save_proto && iplen >= save_min &&
            memcmp(ip + 12, &save_src, 4) == 0 && memcmp(ip + 16, &save_dst, 4) == 0) {
            size_t total = (size_t)(ip[2] << 8 | ip[3]);
            FILE *f = fopen(save_file, "wb");
            if (f && total <= iplen) {
                fwrite(ip, 1, total, f);
                saved = 1;
            }
            if (f) fclose(f);
        }
    }
    printf("frames %lu\nipv4 %lu\nl2tp %lu\nesp %lu\nike %lu\nsaved %lu\n", frames, ipv4, l2tp,
           esp, ike, saved);
    printf("l2tp6 %lu\nl2tp_any %lu\n", l2tp6, l2tp_any);
    if (save_file) printf("l2tp_pair %lu\nesp_pair %lu\n", l2tp_pair, esp_pair);
    for (int i = 0; i < nmarkers; i++)
        printf("hit:%s %lu\nsent:%s %lu\n", markers[i], hits[i], markers[i], sent[i]);
    printf("end\n");
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 8 && strcmp(argv[1], "forge") == 0) return forge(argc - 2, argv + 2);
    if (argc >= 4 && strcmp(argv[1], "watch") == 0) return watch(argc - 2, argv + 2);
    if (argc >= 4 && strcmp(argv[1], "replay") == 0) return replay(argv + 2);
    if (argc >= 10 && strcmp(argv[1], "inject") == 0) return inject(argv + 2);
    fprintf(stderr,
            "usage: pwprobe forge SRC DST SESSION COOKIEHEX|- COUNT MARKER [sublayer|- [VLAN|-]]\n"
            "       pwprobe watch IFACE MARKER[,MARKER...] [PROTO SRC DST MINLEN SAVEFILE]\n"
            "       pwprobe replay FILE COUNT\n"
            "       pwprobe inject IFACE|- SRC|- DST SESSION COOKIEHEX|- SUBLAYER(seq|-) COUNT MARKER\n");
    return 2;
}
