import pino, { type DestinationStream, type Logger } from 'pino';

/** JSON lines on stdout; secrets named here never reach the log. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'rmb' },
      redact: {
        paths: ['password', '*.password', 'token', '*.token', 'authorization', '*.authorization', 'headers.cookie'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
