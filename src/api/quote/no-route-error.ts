import { SwapdError } from "../../core/swapd-error.js";

/** No market, or no route over the markets, fills the request: `NO_ROUTE` (Jupiter's `COULD_NOT_FIND_ANY_ROUTE`). */
export class NoRouteError extends SwapdError<"NO_ROUTE"> {
  override readonly name = "NoRouteError";
  constructor(detail: string) {
    super("NO_ROUTE", {}, `Could not find any route: ${detail}`);
  }
}
