/** The settings form's fields as C§7 sends them. */
export interface UserFields {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
}
