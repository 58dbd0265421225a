/** `POST /swap/v1/swap-instructions`: Jupiter's JSON in and out, Jupiter's error bodies and statuses. */
import { restError } from "../../server/rest.js";
import type { RestRoute } from "../../server/rest.js";
import { JsonBodyShapeError, swapRequestFromJupiterJson } from "./jupiter-request-json.js";
import { swapResponseToJupiterJson } from "./jupiter-response-json.js";
import { isInternalSwapError, swapRestError } from "./swap-errors.js";
import { REST_REQUESTS } from "../rest-request-shapes.js";
import type { SwapInstructionsOperation } from "./swap-instructions.js";

export const SWAP_INSTRUCTIONS_PATH = "/swap/v1/swap-instructions";

export function swapInstructionsRestRoute(swapInstructions: SwapInstructionsOperation): RestRoute {
  return {
    method: "POST",
    path: SWAP_INSTRUCTIONS_PATH,
    request: REST_REQUESTS.swapInstructions,
    async handler(req) {
      try {
        const outcome = await swapInstructions(swapRequestFromJupiterJson(req.body));
        return { status: 200, body: swapResponseToJupiterJson(outcome) };
      } catch (error) {
        // Jupiter (axum): a body that does not deserialize is 422 with this text.
        if (error instanceof JsonBodyShapeError) return restError(422, error.message);
        if (isInternalSwapError(error)) throw error; // the server logs it and answers 500
        return swapRestError(error);
      }
    },
  };
}
