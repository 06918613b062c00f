/** Account names: what `feedmill keys create` and `feedmill users create` accept, one rule for both. */
const accountPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const isAccountName = (value: string): boolean => accountPattern.test(value);

/** What a message says was expected of an account name. */
export const accountNameRule = "an account name of 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit";
