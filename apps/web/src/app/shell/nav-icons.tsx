import type { SvgIconComponent } from '@mui/icons-material';
import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import AddBusinessOutlined from '@mui/icons-material/AddBusinessOutlined';
import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import BadgeOutlined from '@mui/icons-material/BadgeOutlined';
import ChecklistOutlined from '@mui/icons-material/ChecklistOutlined';
import BalanceOutlined from '@mui/icons-material/BalanceOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import EventOutlined from '@mui/icons-material/EventOutlined';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import FolderOpenOutlined from '@mui/icons-material/FolderOpenOutlined';
import HandshakeOutlined from '@mui/icons-material/HandshakeOutlined';
import LabelOutlined from '@mui/icons-material/LabelOutlined';
import ListAltOutlined from '@mui/icons-material/ListAltOutlined';
import NoteAddOutlined from '@mui/icons-material/NoteAddOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import PersonAddOutlined from '@mui/icons-material/PersonAddOutlined';
import PostAddOutlined from '@mui/icons-material/PostAddOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import UndoOutlined from '@mui/icons-material/UndoOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import type { ScreenPath } from '@portal/contract';

/** One icon per sidebar item: the compact side bar shows only these. */
export const NAV_ICONS: Record<ScreenPath, SvgIconComponent> = {
  '/user/user-list': PeopleOutlined,
  '/user/user-new': PersonAddOutlined,
  '/user/profile-list': BadgeOutlined,
  '/origination/request-new': NoteAddOutlined,
  '/origination/pre-request-new': PostAddOutlined,
  '/origination/request-list': FactCheckOutlined,
  '/wallet/credits/credits-list': AccountBalanceWalletOutlined,
  '/wallet/upload-file-pay': UploadFileOutlined,
  '/wallet/files-pay-list': FolderOpenOutlined,
  '/wallet/application-pay-list': ReceiptLongOutlined,
  '/wallet/deduction-orders': ChecklistOutlined,
  '/wallet/refunds': UndoOutlined,
  '/treasury/payment-orders': PaymentsOutlined,
  '/wallet/employer-statement': BalanceOutlined,
  '/wallet/operative-report': AssessmentOutlined,
  '/wallet/admin-flow-date': EventOutlined,
  '/creditos/update-labels': LabelOutlined,
  '/creditos/settlement-letter': DescriptionOutlined,
  '/catalog/contract-list': HandshakeOutlined,
  '/catalog/contract-new': AddBusinessOutlined,
  '/admon-wallet/reports-list': ListAltOutlined,
  '/admon-wallet/reports-new': AssessmentOutlined,
};
