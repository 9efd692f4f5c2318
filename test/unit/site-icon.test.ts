/** Sites' icons: which bytes are kept as an image, the fallback letter, and the icon's address. */
import { describe, expect, it } from "vitest";
import { SITE_ICON_MAX_BYTES, sniffIconType } from "../../src/domain/sites/site-icon.ts";
import { fallbackIconSvg, iconLetter, siteIconUrl } from "../../src/web/site-icon.tsx";

const bytes = (...values: number[]) => new Uint8Array(values);

describe("the icon's type", () => {
  it.each([
    ["image/png", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13)],
    ["image/x-icon", bytes(0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x10, 0x10)],
    ["image/gif", new TextEncoder().encode("GIF89a\x01\x00")],
    ["image/jpeg", bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10)],
    ["image/webp", new TextEncoder().encode("RIFF\x24\x00\x00\x00WEBPVP8 ")],
  ])("is %s when the leading bytes prove it", (type, body) => {
    expect(sniffIconType(body)).toBe(type);
  });

  it.each([
    ["an SVG (a document that can carry script)", new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg">')],
    ["an HTML page served as an icon", new TextEncoder().encode("<!doctype html><title>404</title>")],
    ["a RIFF file that is not WebP", new TextEncoder().encode("RIFF\x24\x00\x00\x00WAVEfmt ")],
    ["nothing", bytes()],
    ["a truncated PNG signature", bytes(0x89, 0x50, 0x4e)],
  ])("is none for %s", (_name, body) => {
    expect(sniffIconType(body)).toBeNull();
  });

  it("caps an icon at a size no favicon needs", () => {
    expect(SITE_ICON_MAX_BYTES).toBe(65_536);
  });
});

describe("the fallback", () => {
  it("is the domain's first letter or digit, upper-case", () => {
    expect(iconLetter("example.com")).toBe("E");
    expect(iconLetter("1password.com")).toBe("1");
    expect(iconLetter("-.-")).toBe("?");
  });

  it("is an SVG image with only that letter: the domain itself never reaches the markup", () => {
    const svg = fallbackIconSvg('"><script>alert(1)</script>.example');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).not.toContain("script");
    expect(svg).toContain(">S</text>");
  });

  it("lives on the service, the domain one escaped path segment", () => {
    expect(siteIconUrl("https://svc.example", "a.example")).toBe("https://svc.example/icons/a.example");
    expect(siteIconUrl("https://svc.example", "a/b")).toBe("https://svc.example/icons/a%2Fb");
  });
});
