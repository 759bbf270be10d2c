import { AdminPage } from '../kitchen-admin/admin-page.js';
import { KitchenRegistration } from './kitchen-registration.js';

export function KitchenRegisterPage() {
  return <AdminPage>{(user) => <KitchenRegistration user={user} />}</AdminPage>;
}
