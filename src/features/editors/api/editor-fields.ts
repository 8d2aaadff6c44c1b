/** The add-editor form's fields (A§7 POST users). */
export interface EditorFields {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  /** A 200 px JPEG data: URL, or null for none. */
  profilePictureUrl: string | null;
}
