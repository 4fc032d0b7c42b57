import { z } from 'zod';
import { QR_MAX_DATA_LENGTH, QR_STYLES } from '../qr/qr-svg';

/** GET /api/qrcode?data=&size=&style=&format= */
export const QrCodeQuery = z.strictObject({
  data: z
    .string({ error: 'data is required' })
    .min(1, 'data is required')
    .max(QR_MAX_DATA_LENGTH, `data must be at most ${QR_MAX_DATA_LENGTH} characters`),
  size: z.coerce
    .number({ error: 'size must be a number' })
    .int('size must be a whole number')
    .min(32, 'size must be at least 32')
    .max(1024, 'size must be at most 1024')
    .default(200),
  style: z.enum(QR_STYLES as [string, ...string[]], { error: `style must be one of ${QR_STYLES.join(', ')}` }).default('standard'),
  margin: z.coerce.number().int().min(0, 'margin must be 0 to 10').max(10, 'margin must be 0 to 10').optional(),
  format: z.enum(['svg', 'png'], { error: 'format must be svg or png' }).default('svg'),
});
export type QrCodeQuery = z.infer<typeof QrCodeQuery>;
