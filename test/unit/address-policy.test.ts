import { describe, expect, it } from "vitest";
import {
  type AddressClass,
  checkTargetUrl,
  classifyAddress,
  formatAddress,
  parseIpLiteral,
} from "../../src/adapters/outbound/address-policy.ts";

/** The canonical text of a literal, or null: the shortest way to assert what a spelling means. */
const canonical = (text: string) => {
  const ip = parseIpLiteral(text);
  return ip ? formatAddress(ip) : null;
};

describe("parseIpLiteral", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["2130706433.", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["0X7F000001", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0x7f.0.0.1", "127.0.0.1"],
    ["0x7f.0x0.0x0.0x1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.0.1", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["0177.1", "127.0.0.1"],
    ["127.000.000.001", "127.0.0.1"],
    ["169.254.43518", "169.254.169.254"],
    ["0251.0376.0251.0376", "169.254.169.254"],
    ["0xa9fea9fe", "169.254.169.254"],
    ["2852039166", "169.254.169.254"],
    ["0", "0.0.0.0"],
    ["0x", "0.0.0.0"],
    ["4294967295", "255.255.255.255"],
    ["93.184.216.34", "93.184.216.34"],
  ])("reads the IPv4 spelling %s as %s", (text, expected) => {
    expect(canonical(text)).toBe(expected);
    expect(parseIpLiteral(text)?.family).toBe(4);
  });

  it.each([
    ["::1", "::1"],
    ["[::1]", "::1"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["::", "::"],
    ["[::ffff:127.0.0.1]", "::ffff:127.0.0.1"],
    ["::ffff:7f00:1", "::ffff:127.0.0.1"],
    ["0:0:0:0:0:ffff:127.0.0.1", "::ffff:127.0.0.1"],
    ["::127.0.0.1", "::7f00:1"],
    ["64:ff9b::169.254.169.254", "64:ff9b::a9fe:a9fe"],
    ["FE80::1", "fe80::1"],
    ["fd00:ec2::254", "fd00:ec2::254"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"],
    ["::2:3:4:5:6:7:8", "0:2:3:4:5:6:7:8"],
  ])("reads the IPv6 spelling %s as %s", (text, expected) => {
    expect(canonical(text)).toBe(expected);
    expect(parseIpLiteral(text)?.family).toBe(6);
  });

  it.each([
    "",
    ".",
    "example.com",
    "localhost",
    "1.2.3.4.5",
    "256.0.0.1",
    "127.0.0.256",
    "127.16777216",
    "4294967296",
    "0x100000000",
    "08.0.0.1",
    "0x7g.0.0.1",
    "1..2.3",
    "+1.2.3.4",
    " 127.0.0.1",
    "fe80::1%eth0",
    "[fe80::1%25eth0]",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7:8::",
    "1::2::3",
    ":::1",
    "12345::1",
    "::ffff:127.0.0.01",
    "::ffff:127.1",
    "::ffff:256.0.0.1",
    "[127.0.0.1]",
    "[::1",
    "::1]",
  ])("refuses %j as a literal", (text) => {
    expect(parseIpLiteral(text)).toBeNull();
  });
});

describe("classifyAddress", () => {
  const vectors: [string, AddressClass][] = [
    ["93.184.216.34", "public"],
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["100.63.255.255", "public"],
    ["100.128.0.0", "public"],
    ["172.15.255.255", "public"],
    ["172.32.0.0", "public"],
    ["192.169.0.1", "public"],
    ["223.255.255.255", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.8", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.0.1", "link-local"],
    ["169.254.169.254", "metadata"],
    ["100.100.100.200", "metadata"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.0.8", "reserved"],
    ["192.0.2.1", "documentation"],
    ["198.51.100.1", "documentation"],
    ["203.0.113.1", "documentation"],
    ["198.18.0.1", "benchmark"],
    ["198.19.255.255", "benchmark"],
    ["2606:4700:4700::1111", "public"],
    ["2a00:1450:4001:81c::200e", "public"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fec0::1", "private"],
    ["fc00::1", "ula"],
    ["fd12:3456:789a::1", "ula"],
    ["fd00:ec2::254", "metadata"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation"],
    ["2001:2::1", "benchmark"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "tunnel"],
    ["2002:7f00:1::", "tunnel"],
    ["2002:5db8:d822::1", "tunnel"],
    ["2001:10::1", "reserved"],
    ["100::1", "reserved"],
    ["64:ff9b:1::1", "reserved"],
    ["4000::1", "reserved"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:93.184.216.34", "public"],
    ["::127.0.0.1", "loopback"],
    ["::a9fe:a9fe", "metadata"],
    ["::ffff:0:127.0.0.1", "loopback"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::10.1.2.3", "private"],
    ["64:ff9b::93.184.216.34", "public"],
    ["2130706433", "loopback"],
    ["0xa9fea9fe", "metadata"],
    ["not-an-address", "invalid"],
    ["fe80::1%eth0", "invalid"],
  ];

  it.each(vectors)("classifies %s as %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it("accepts a parsed address as well as text", () => {
    const parsed = parseIpLiteral("0x0a.1");
    expect(parsed).not.toBeNull();
    if (parsed) expect(classifyAddress(parsed)).toBe("private");
  });
});

describe("checkTargetUrl", () => {
  const strict = { allowPrivate: false };
  const reasonOf = (input: string) => {
    const result = checkTargetUrl(input, strict);
    return result.ok ? null : result.reason;
  };

  it("accepts public http and https URLs on default ports", () => {
    for (const input of [
      "https://example.com/",
      "http://example.com:80/a?b=c",
      "https://example.com:443/",
      "https://93.184.216.34/",
      "https://[2606:4700:4700::1111]/",
      "https://Example.COM./path",
    ]) {
      const result = checkTargetUrl(input, strict);
      expect(result.ok, input).toBe(true);
    }
  });

  it("gives short public reasons", () => {
    expect(reasonOf("http://10.0.0.8/")).toBe("the address 10.0.0.8 is private");
    expect(reasonOf("http://0x7f.1/")).toBe("the address 127.0.0.1 is a loopback address");
    expect(reasonOf("http://[::ffff:7f00:1]/")).toBe("the address ::ffff:127.0.0.1 is a loopback address");
    expect(reasonOf("http://169.254.43518/")).toBe("the address 169.254.169.254 is a cloud metadata address");
    expect(reasonOf("ftp://example.com/")).toBe("the scheme ftp: is not allowed, only http: and https:");
    expect(reasonOf("http://a:b@example.com/")).toBe("URLs with credentials are not allowed");
    expect(reasonOf("http://example.com:8080/")).toBe("the port 8080 is not allowed, only 80 and 443");
    expect(reasonOf("/relative")).toBe("the URL is not a valid absolute URL");
    expect(reasonOf("http://db.internal/")).toBe("the host name db.internal belongs to a private network");
    expect(reasonOf("http://printer/")).toBe("the single-label host name printer is not allowed");
  });

  it.each([
    "http://localhost/",
    "http://LOCALHOST./",
    "http://api.localhost/",
    "http://printer.local/",
    "http://metadata.google.internal/",
    "http://router.home.arpa/",
    "http://1.0.0.127.in-addr.arpa/",
    "http://localhost.localdomain/",
    "http://metadata/",
    "http://nas.lan/",
    "http://kubernetes.default.svc/",
    "http://api.cluster.local/",
    "http://host.docker.internal/",
    "http://nothing.invalid/",
    "http://hidden.onion/",
    "http://name.alt/",
    "http://INTERNAL./",
  ])("refuses the private-network name in %s", (input) => {
    expect(checkTargetUrl(input, strict).ok).toBe(false);
  });

  it("with allowPrivate, allows private addresses, names and ports but never other schemes or credentials", () => {
    const loose = { allowPrivate: true };
    expect(checkTargetUrl("http://127.0.0.1:8787/x", loose).ok).toBe(true);
    expect(checkTargetUrl("http://localhost:3000/", loose).ok).toBe(true);
    expect(checkTargetUrl("http://[::1]:9/", loose).ok).toBe(true);
    expect(checkTargetUrl("file:///etc/passwd", loose).ok).toBe(false);
    expect(checkTargetUrl("http://u:p@127.0.0.1/", loose).ok).toBe(false);
  });

  it.each([
    ["https://.example.com/", "the host name .example.com has an empty label (a leading dot or two dots in a row)"],
    [
      "https://shop..example.com/x",
      "the host name shop..example.com has an empty label (a leading dot or two dots in a row)",
    ],
    [
      `https://${"a".repeat(64)}.example.com/`,
      `the host name ${"a".repeat(64)}.example.com has a label longer than 63 characters`,
    ],
    [
      `https://${"abcdefghi.".repeat(26)}com/`,
      `the host name ${"abcdefghi.".repeat(26)}com is longer than 253 characters`,
    ],
  ])("calls the host of %s malformed, with or without allowPrivate", (input, reason) => {
    for (const allowPrivate of [false, true]) {
      expect(checkTargetUrl(input, { allowPrivate })).toEqual({ ok: false, reason, malformed: true });
    }
  });

  it("keeps a trailing dot and a 63-character label as well formed", () => {
    expect(checkTargetUrl("https://example.com./", strict).ok).toBe(true);
    expect(checkTargetUrl(`https://${"a".repeat(63)}.example.com/`, strict).ok).toBe(true);
  });

  it("calls a refusal of a well-formed URL not malformed", () => {
    expect(checkTargetUrl("http://10.0.0.1/", strict)).toMatchObject({ ok: false, malformed: false });
    expect(checkTargetUrl("ftp://example.com/", strict)).toMatchObject({ ok: false, malformed: false });
  });

  it("returns the parsed URL", () => {
    const result = checkTargetUrl("https://Example.com/a/../b", strict);
    expect(result.ok && result.url.href).toBe("https://example.com/b");
  });
});
