/** A period that cannot be (ends before it starts, no real day) is the client's error: 400. */
import { HttpError } from '../../http/httpError';

export async function periodChecked<T>(report: () => Promise<T>): Promise<T> {
  try {
    return await report();
  } catch (error) {
    if (error instanceof RangeError) throw new HttpError(400, error.message);
    throw error;
  }
}
