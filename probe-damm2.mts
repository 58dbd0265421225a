import { CpAmm } from "@meteora-ag/cp-amm-sdk";
import { Connection } from "@solana/web3.js";
const cp = new CpAmm(new Connection("http://127.0.0.1:9"));
const program = (cp as any)._program;
for (const n of ["podAlignedFeeTimeScheduler", "podAlignedFeeRateLimiter", "podAlignedFeeMarketCapScheduler", "poolFeesStruct", "dynamicFeeStruct", "baseFeeStruct", "baseFeeInfo", "poolMetrics"]) {
  const t = program.idl.types.find((t: any) => t.name.toLowerCase() === n.toLowerCase());
  console.log(n, t ? t.type.fields.map((f: any) => f.name + ":" + JSON.stringify(f.type)).join(", ") : "none");
}
