import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { ACTION_PERMISSIONS, NAV_GROUPS } from '@portal/contract';

/** The sidebar as a tree (group → screens, then the group's actions): checking a group checks all of it. */
export function PermissionTree({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const selected = new Set(value);
  const set = (paths: string[], on: boolean) => {
    const next = new Set(selected);
    for (const path of paths) {
      if (on) next.add(path);
      else next.delete(path);
    }
    onChange([...next]);
  };
  return (
    <Box role="group" aria-label="Permisos">
      {NAV_GROUPS.map((group) => {
        const leaves = [
          ...group.items.map((entry) => ({ path: entry.path, label: entry.label })),
          ...ACTION_PERMISSIONS.filter((action) => action.group === group.key).map((action) => ({
            path: action.path,
            label: `Acción: ${action.label}`,
          })),
        ];
        const paths = leaves.map((leaf) => leaf.path);
        const checked = paths.filter((path) => selected.has(path)).length;
        return (
          <Box key={group.key} sx={{ mb: 1 }}>
            <FormControlLabel
              label={<Typography sx={{ fontWeight: 600 }}>{group.label}</Typography>}
              control={
                <Checkbox
                  checked={checked === paths.length}
                  indeterminate={checked > 0 && checked < paths.length}
                  onChange={(event) => set(paths, event.target.checked)}
                />
              }
            />
            <Box sx={{ display: 'flex', flexDirection: 'column', ml: 4 }}>
              {leaves.map((leaf) => (
                <FormControlLabel
                  key={leaf.path}
                  label={leaf.label}
                  control={
                    <Checkbox size="small" checked={selected.has(leaf.path)} onChange={(event) => set([leaf.path], event.target.checked)} />
                  }
                />
              ))}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
