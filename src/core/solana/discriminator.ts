/** Whether `data` holds `discriminator` (an Anchor account, instruction or event tag) at `offset`. */
export function hasDiscriminator(data: ArrayLike<number>, discriminator: ArrayLike<number>, offset = 0): boolean {
  if (data.length < offset + discriminator.length) return false;
  for (let i = 0; i < discriminator.length; i++) {
    if (data[offset + i] !== discriminator[i]) return false;
  }
  return true;
}
