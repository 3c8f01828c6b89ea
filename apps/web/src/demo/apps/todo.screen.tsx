import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link, useParams } from 'react-router';
import type { TODOS } from '../fake-api/data';
import { DemoPage, postJson, useDemoMutation, useDemoQuery } from '../ui';

type Todo = (typeof TODOS)[number];
const PATH = '/api/todo/all';

function useTodos() {
  const { data = [] } = useDemoQuery<Todo[]>(PATH);
  const toggle = useDemoMutation(PATH, (todo: Todo) => postJson<Todo[]>('/api/todo/update', { id: todo.id, done: !todo.done }));
  return { todos: data, toggle: (todo: Todo) => toggle.mutate(todo) };
}

function TodoList() {
  const { todos, toggle } = useTodos();
  return (
    <DemoPage>
      <Paper variant="outlined">
        <List aria-label="Pendientes">
          {todos.map((todo) => (
            <ListItem key={todo.id} disablePadding divider secondaryAction={<Chip size="small" label={todo.tag} />}>
              <ListItemIcon sx={{ pl: 1 }}>
                <Checkbox
                  checked={todo.done}
                  onChange={() => toggle(todo)}
                  slotProps={{ input: { 'aria-label': `Terminado: ${todo.title}` } }}
                />
              </ListItemIcon>
              <ListItemButton component={Link} to={`/todo/list/${todo.id}`}>
                <ListItemText primary={todo.title} sx={{ textDecoration: todo.done ? 'line-through' : 'none' }} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Paper>
    </DemoPage>
  );
}

function TodoDetail() {
  const { id } = useParams();
  const { todos, toggle } = useTodos();
  const todo = todos.find((item) => item.id === id);
  return (
    <DemoPage>
      {todo ? (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography variant="h6" component="h2">
            {todo.title}
          </Typography>
          <Chip size="small" label={todo.tag} sx={{ my: 1 }} />
          <Typography>
            <Checkbox checked={todo.done} onChange={() => toggle(todo)} slotProps={{ input: { 'aria-label': 'Terminado' } }} />{' '}
            {todo.done ? 'Terminado' : 'Pendiente'}
          </Typography>
          <Link to="/todo/list">Volver a la lista</Link>
        </Paper>
      ) : (
        <Typography color="text.secondary">Pendiente no encontrado.</Typography>
      )}
    </DemoPage>
  );
}

export const screens = { list: TodoList, detail: TodoDetail };
