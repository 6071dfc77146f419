import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { ApiError } from '../../api/client';

/** What a console page has loaded: the data, the error's message, and a way to load again. */
interface AdminData<T> {
  data: T | undefined;
  error: string | undefined;
  reload: () => void;
}

/**
 * Loads `load()` when `key` changes (and on reload()); `onUnauthorised` runs when the server answers 401 (the
 * session ended), so the console can show its sign-in form.
 */
export function useAdminData<T>(load: () => Promise<T>, key: string, onUnauthorised: () => void): AdminData<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [round, setRound] = useState(0);
  // `load` and `onUnauthorised` are new functions on each render; the effect calls the latest ones.
  const loadLatest = useEffectEvent(load);
  const unauthorised = useEffectEvent(onUnauthorised);
  useEffect(() => {
    let current = true;
    loadLatest().then(
      (loaded) => {
        if (!current) return;
        setData(loaded);
        setError(undefined);
      },
      (failure: unknown) => {
        if (!current) return;
        if (failure instanceof ApiError && failure.status === 401) unauthorised();
        else setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
    return () => {
      current = false;
    };
    // `key` names what `load` loads.
  }, [key, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { data, error, reload };
}
