/**
 * Program binaries read from the chain for the program quoter: an upgradeable program's account
 * names its programdata account, whose data after a 45-byte header (tag, deploy slot, optional
 * upgrade authority) is the ELF. Kept on disk by (program, deploy slot), so a restart does not
 * read megabytes again and an unreachable RPC at start still finds the last copy; `refresh` reads
 * the programdata header's slot again and reloads the binary when the program was upgraded.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PublicKey } from "@solana/web3.js";
import type { Logger } from "pino";
import type { SolanaChain } from "./solana-chain.js";

const UPGRADEABLE_LOADER = "BPFLoaderUpgradeab1e11111111111111111111111";
const LOADER_V2 = "BPFLoader2111111111111111111111111111111111";
/** `UpgradeableLoaderState::ProgramData`: u32 tag 3, u64 slot, Option<Pubkey> (1 + 32). */
const PROGRAMDATA_HEADER = 45;

export interface ProgramBinary {
  readonly programId: PublicKey;
  /** The slot it was deployed at (0 for a non-upgradeable program). */
  readonly deploySlot: bigint;
  readonly elf: Uint8Array;
}

/** The chain has no deployed BPF program at this address (not an RPC failure: asking again answers the same). */
export class ProgramNotDeployedError extends Error {
  override readonly name = "ProgramNotDeployedError";
}

/** Reads a program's current binary from the chain; throws with the reason when it is not a deployed BPF program. */
export async function readProgramBinary(chain: SolanaChain, programId: PublicKey): Promise<ProgramBinary> {
  const [program] = await chain.getMultipleAccounts([programId]);
  const what = `program ${programId.toBase58()}`;
  if (!program) throw new ProgramNotDeployedError(`${what} does not exist on this chain`);
  const loader = program.owner.toBase58();
  if (loader === LOADER_V2) return { programId, deploySlot: 0n, elf: program.data };
  if (loader !== UPGRADEABLE_LOADER || program.data.length < 36) throw new ProgramNotDeployedError(`${what} is not a BPF program (owner ${loader})`);
  const programData = new PublicKey(program.data.subarray(4, 36));
  const [data] = await chain.getMultipleAccounts([programData]);
  if (!data || data.data.length <= PROGRAMDATA_HEADER) throw new ProgramNotDeployedError(`${what}: programdata ${programData.toBase58()} is missing or empty`);
  const view = Buffer.from(data.data.buffer, data.data.byteOffset, data.data.byteLength);
  return { programId, deploySlot: view.readBigUInt64LE(4), elf: data.data.subarray(PROGRAMDATA_HEADER) };
}

export interface ProgramBinariesOptions {
  readonly chain: SolanaChain;
  /** Where binaries are kept between runs (`<DATA_DIR>/programs`); none = memory only. */
  readonly cacheDir?: string;
  readonly logger?: Logger;
}

/** The binaries the program quoter runs, read from the chain once, kept on disk, reloaded on upgrade. */
export class ProgramBinaries {
  private readonly loaded = new Map<string, ProgramBinary>();

  constructor(private readonly options: ProgramBinariesOptions) {}

  /** The program's binary: from the chain (then written to disk), or the disk copy when the chain cannot be read. */
  async load(programId: PublicKey): Promise<ProgramBinary> {
    const key = programId.toBase58();
    try {
      const binary = await readProgramBinary(this.options.chain, programId);
      this.loaded.set(key, binary);
      await this.keep(binary);
      return binary;
    } catch (error) {
      const kept = await this.kept(programId);
      if (!kept) throw error;
      this.options.logger?.warn(
        { programId: key, deploySlot: String(kept.deploySlot), err: String(error) },
        "program binary read from the disk copy: the chain could not be read",
      );
      this.loaded.set(key, kept);
      return kept;
    }
  }

  /** Re-reads every loaded program; returns those whose deploy slot changed (upgraded). */
  async refresh(): Promise<ProgramBinary[]> {
    const upgraded: ProgramBinary[] = [];
    for (const [key, before] of this.loaded) {
      const now = await readProgramBinary(this.options.chain, before.programId);
      if (now.deploySlot === before.deploySlot && now.elf.length === before.elf.length) continue;
      this.options.logger?.info({ programId: key, from: String(before.deploySlot), to: String(now.deploySlot) }, "program upgraded: binary reloaded");
      this.loaded.set(key, now);
      await this.keep(now);
      upgraded.push(now);
    }
    return upgraded;
  }

  private fileOf(programId: PublicKey, deploySlot: bigint): string | undefined {
    return this.options.cacheDir && join(this.options.cacheDir, `${programId.toBase58()}-${deploySlot}.so`);
  }

  private async keep(binary: ProgramBinary): Promise<void> {
    const file = this.fileOf(binary.programId, binary.deploySlot);
    if (!file) return;
    await mkdir(this.options.cacheDir!, { recursive: true });
    // Written aside and renamed: a crash mid-write never leaves a truncated binary to load.
    await writeFile(`${file}.partial`, binary.elf);
    await rename(`${file}.partial`, file);
    await writeFile(join(this.options.cacheDir!, `${binary.programId.toBase58()}.latest`), String(binary.deploySlot));
  }

  private async kept(programId: PublicKey): Promise<ProgramBinary | undefined> {
    if (!this.options.cacheDir) return undefined;
    try {
      const deploySlot = BigInt((await readFile(join(this.options.cacheDir, `${programId.toBase58()}.latest`), "utf8")).trim());
      const elf = new Uint8Array(await readFile(this.fileOf(programId, deploySlot)!));
      return { programId, deploySlot, elf };
    } catch (error) {
      // No disk copy (first run, or another DATA_DIR): the caller reports the chain's error.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }
}
