/** Runs a report over a period; a period that cannot be (ends before it starts, no real day) is the client's error: 400. */
import { HttpError } from '../../http/httpError';

/** `report()`'s result. @throws HttpError 400 for the RangeError of server/admin/reports.ts periodOf. */
export async function periodChecked<T>(report: () => Promise<T>): Promise<T> {
  try {
    return await report();
  } catch (error) {
    if (error instanceof RangeError) throw new HttpError(400, error.message);
    throw error;
  }
}
