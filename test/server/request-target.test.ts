import { describe, expect, it } from "vitest";
import type { NodeRequest } from "../../src/server/rest.js";
import { requestUrl } from "../../src/server/request-target.js";

/** What the WHATWG URL parser makes of a request target: the routing every target got before the plain-target split. */
function parsed(target: string): { pathname: string; query: string } | undefined {
  try {
    const url = new URL(target, "http://localhost");
    return { pathname: url.pathname, query: url.searchParams.toString() };
  } catch {
    return undefined;
  }
}

describe("requestUrl", () => {
  it("gives the path and query the URL parser gives, for plain targets and for those it normalises", () => {
    const targets = [
      "/swap/v1/quote?inputMint=So11111111111111111111111111111111111111112&amount=10&dexes=Whirlpool,Raydium+CLMM&x=%20y",
      "/healthz",
      "/",
      "/swapd.swap.v1.SwapService/Quote",
      "/.well-known/x",
      "/a/../swap/v1/quote?amount=1",
      "/a/./b",
      "/a/..",
      "/a/.?x=1",
      "/a/%2e%2e/b",
      "/a\\b",
      "/a b?c d",
      "/a?b#c",
      "/q?dexes=a&dexes=b&k=%E2%82%AC&empty=&flag",
      "/ünïcode?x=ü",
      "//host/path",
      "//[",
    ];
    for (const target of targets) {
      const got = requestUrl({ url: target } as NodeRequest);
      const want = parsed(target);
      expect(got && { pathname: got.pathname, query: got.searchParams.toString() }, target).toEqual(want);
    }
  });
});
