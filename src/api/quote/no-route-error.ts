/** No market, or no route over the markets, fills the request: Jupiter's `COULD_NOT_FIND_ANY_ROUTE`. */
export class NoRouteError extends Error {
  override readonly name = "NoRouteError";
  readonly errorCode = "COULD_NOT_FIND_ANY_ROUTE";
  constructor(detail: string) {
    super(`Could not find any route: ${detail}`);
  }
}
