/** The largest image taken, in bytes: a specimen photograph at full resolution, with room to spare. */
export const IMAGE_MAX_BYTES = 50 * 1024 * 1024;
