import { CustomConversionNotFound, PixelNotFound } from '../../../platforms/capabilities/ad-pixels.js';
import type { PlatformError } from '../../../platforms/errors.js';
import { throwAdRefusal } from '../refusals.js';
import { CustomConversionNotFoundError, PixelNotFoundError } from './errors.js';

/**
 * The refusals of a pixel, server event or custom conversion call as `withAdAccount`'s `handle`: a pixel or custom
 * conversion the ad account lacks is 404; the rest as every ad refusal, the member named under `where`.
 */
export function pixelRefusals(where: 'body' | 'query' = 'body'): (error: PlatformError) => void {
  return (error) => {
    if (error instanceof PixelNotFound) throw new PixelNotFoundError();
    if (error instanceof CustomConversionNotFound) throw new CustomConversionNotFoundError();
    throwAdRefusal(error, where);
  };
}
