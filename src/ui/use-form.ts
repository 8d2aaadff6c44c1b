import { useCallback, useMemo, useState } from 'react';

/**
 * Form state with the specs' behaviour: a field's error shows after it is blurred or the form
 * is submitted; submit is blocked while any error exists; server field messages show too and
 * clear when that field changes.
 */
export function useForm<K extends string>(initial: Record<K, string>, validate: (values: Record<K, string>) => Partial<Record<K, string>>) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<K, string>>>({});
  const ruleErrors = useMemo(() => validate(values), [validate, values]);

  const errors = useMemo(() => {
    const shown: Partial<Record<K, string>> = {};
    for (const key of Object.keys(values) as K[]) {
      const message = serverErrors[key] ?? (touched[key] ? ruleErrors[key] : undefined);
      if (message) shown[key] = message;
    }
    return shown;
  }, [values, touched, ruleErrors, serverErrors]);

  const set = useCallback((key: K, value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setServerErrors((current) => (current[key] ? { ...current, [key]: undefined } : current));
  }, []);
  const blur = useCallback((key: K) => setTouched((current) => ({ ...current, [key]: true })), []);

  /** Marks every field touched; true when the form may be sent. */
  const checkAll = useCallback((): boolean => {
    setTouched(Object.fromEntries(Object.keys(values).map((k) => [k, true])) as Record<K, boolean>);
    return Object.keys(validate(values)).length === 0;
  }, [validate, values]);

  /** Empties `keys` and hides their rule messages until they are touched again (a card's number and code once it is tokenized or declined). */
  const clear = useCallback((keys: readonly K[]) => {
    setValues((current) => ({ ...current, ...Object.fromEntries(keys.map((k) => [k, ''])) }));
    setTouched((current) => ({ ...current, ...Object.fromEntries(keys.map((k) => [k, false])) }));
  }, []);

  const field = (key: K) => ({ value: values[key], onChange: (v: string) => set(key, v), onBlur: () => blur(key), error: errors[key] });

  return { values, errors, set, blur, checkAll, clear, field, hasErrors: Object.keys(ruleErrors).length > 0, setServerErrors };
}
