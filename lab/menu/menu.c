/*
 * menu.c - the menu's terminal, event loop, view stack, pager and help.
 *
 * Loop: draw the top view (building its text first when stale), then poll
 * the keyboard, the grading worker's pipe (job.c) and the inotify fd of
 * watch mode; keys go through the top screen's key table, then the pager's
 * (scroll, search, help, back).  The help screen is made from those same
 * tables.
 *
 * The terminal is restored on every exit: normal return, `q`/Ctrl-C (raw
 * mode makes them keys), and SIGTERM/SIGHUP, whose handler kills the lab's
 * children, writes the terminal's saved reset strings, restores the saved
 * termios and re-raises.  A child that crashes (a driver, the editor) is
 * only a verdict or a message: the lab is another process.
 */
#include "lab/menu/menu.h"
#include "lab/util/i18n.h"
#include "lab/platform/proc.h"

#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <termios.h>
#include <unistd.h>

#include "lab/util/textwidth.h"

#define LAB_CTRL(c) ((c)&0x1f)

/* For the signal handler only: what puts the terminal back (set once, before handlers). */
static struct termios saved_tty;
static char reset_seq[256];
static size_t reset_len;

static void
on_fatal_signal(int sig)
{
    lab_proc_kill_all();
    if (reset_len && write(STDOUT_FILENO, reset_seq, reset_len) < 0)
        reset_len = 0;
    tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void
save_reset_sequence(void)
{
    const char *caps[] = { "sgr0", "cnorm", "rmkx", "rmcup" };

    reset_len = 0;
    for (size_t i = 0; i < ARRAY_SIZE(caps); i++) {
        const char *s = tigetstr(caps[i]);
        size_t n = s && s != (char *)-1 ? strlen(s) : 0;
        if (reset_len + n < sizeof(reset_seq)) {
            memcpy(reset_seq + reset_len, s, n);
            reset_len += n;
        }
    }
}

static void
install_signals(void)
{
    struct sigaction sa = { 0 };
    int sigs[] = { SIGTERM, SIGHUP, SIGINT, SIGQUIT };

    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
        sigaction(sigs[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* --- colours ------------------------------------------------------------------- */

static const struct {
    short fg;
    attr_t attr;
} styles[LAB_STYLE_COUNT] = {
    [LAB_STYLE_TEXT] = { -1, A_NORMAL },
    [LAB_STYLE_HEADING] = { COLOR_CYAN, A_BOLD },
    [LAB_STYLE_STRONG] = { -1, A_BOLD },
    [LAB_STYLE_EMPH] = { -1, A_UNDERLINE },
    [LAB_STYLE_CODE] = { COLOR_GREEN, 0 },
    [LAB_STYLE_KEYWORD] = { COLOR_YELLOW, A_BOLD },
    [LAB_STYLE_COMMENT] = { COLOR_BLUE, 0 },
    [LAB_STYLE_QUOTE] = { COLOR_MAGENTA, 0 },
    [LAB_STYLE_TABLE] = { -1, 0 },
    [LAB_STYLE_DIM] = { -1, A_DIM },
    [LAB_STYLE_GOOD] = { COLOR_GREEN, A_BOLD },
    [LAB_STYLE_BAD] = { COLOR_RED, A_BOLD },
    [LAB_STYLE_WARN] = { COLOR_YELLOW, A_BOLD },
    [LAB_STYLE_MATCH] = { -1, A_REVERSE },
};

static attr_t
style_attr(const lab_menu *m, int s)
{
    attr_t a = styles[s].attr;

    if (m->color && styles[s].fg >= 0)
        a |= COLOR_PAIR(s + 1);
    if (!m->color && s == LAB_STYLE_HEADING)
        a |= A_UNDERLINE;
    return a;
}

static void
init_colors(lab_menu *m, bool color)
{
    m->color = color && has_colors() && start_color() == OK;
    if (!m->color)
        return;
    use_default_colors();
    for (int s = 0; s < LAB_STYLE_COUNT; s++)
        if (styles[s].fg >= 0)
            init_pair(s + 1, styles[s].fg, -1);
}

/* A report's styles (lab/report/style.h) in the pager's. */
static const unsigned char report_styles[LAB_TEXT_STYLE_COUNT] = {
    [LAB_TEXT_PLAIN] = LAB_STYLE_TEXT,
    [LAB_TEXT_BOLD] = LAB_STYLE_STRONG,
    [LAB_TEXT_TITLE] = LAB_STYLE_HEADING,
    [LAB_TEXT_GOOD] = LAB_STYLE_GOOD,
    [LAB_TEXT_BAD] = LAB_STYLE_BAD,
    [LAB_TEXT_WARN] = LAB_STYLE_WARN,
    [LAB_TEXT_DIM] = LAB_STYLE_DIM,
    [LAB_TEXT_SOURCE] = LAB_STYLE_COMMENT,
    [LAB_TEXT_MARK] = LAB_STYLE_KEYWORD,
    [LAB_TEXT_MARK_DIVERGE] = LAB_STYLE_BAD,
    [LAB_TEXT_MARK_SELECT] = LAB_STYLE_GOOD,
    [LAB_TEXT_BAR] = LAB_STYLE_CODE,
    [LAB_TEXT_VERDICT + LAB_TONE_PASS] = LAB_STYLE_GOOD,
    [LAB_TEXT_VERDICT + LAB_TONE_SLOW] = LAB_STYLE_WARN,
    [LAB_TEXT_VERDICT + LAB_TONE_FAIL] = LAB_STYLE_BAD,
    [LAB_TEXT_VERDICT + LAB_TONE_LIMIT] = LAB_STYLE_BAD,
    [LAB_TEXT_VERDICT + LAB_TONE_NO_GPU] = LAB_STYLE_WARN,
    /* the heat map's shades, cool to hot */
    [LAB_TEXT_HEAT + 0] = LAB_STYLE_COMMENT,
    [LAB_TEXT_HEAT + 1] = LAB_STYLE_COMMENT,
    [LAB_TEXT_HEAT + 2] = LAB_STYLE_COMMENT,
    [LAB_TEXT_HEAT + 3] = LAB_STYLE_COMMENT,
    [LAB_TEXT_HEAT + 4] = LAB_STYLE_KEYWORD,
    [LAB_TEXT_HEAT + 5] = LAB_STYLE_KEYWORD,
    [LAB_TEXT_HEAT + 6] = LAB_STYLE_KEYWORD,
    [LAB_TEXT_HEAT + 7] = LAB_STYLE_BAD,
    [LAB_TEXT_HEAT + 8] = LAB_STYLE_BAD,
    [LAB_TEXT_HEAT + 9] = LAB_STYLE_BAD,
};
_Static_assert(LAB_TEXT_SHADES == 10, "one pager style per heat shade");

lab_style
lab_menu_style(lab_text_style s)
{
    return (unsigned)s < LAB_TEXT_STYLE_COUNT ? (lab_style)report_styles[s] : LAB_STYLE_TEXT;
}

int
lab_menu_add_line(void *doc, const lab_line *line)
{
    unsigned char *st = malloc(line->len ? line->len : 1);
    int rc;

    if (!st)
        return LAB_ENOMEM;
    for (size_t i = 0; i < line->len; i++)
        st[i] = (unsigned char)lab_menu_style(line->styles[i]);
    rc = lab_doc_add_styled(doc, line->text, st, line->len);
    free(st);
    return rc;
}

/* --- the view stack ------------------------------------------------------------ */

int
lab_menu_push(lab_menu *m, const lab_menu_screen *s, void *state, const char *title)
{
    lab_menu_view *v;

    if (m->depth == (int)ARRAY_SIZE(m->stack) || !(v = calloc(1, sizeof(*v)))) {
        if (s->release)
            s->release(state);
        lab_menu_status(m, _("too many screens open"));
        return LAB_ENOMEM;
    }
    v->screen = s;
    v->state = state;
    v->stale = true;
    snprintf(v->title, sizeof(v->title), "%s", title);
    m->stack[m->depth++] = v;
    return 0;
}

static void
view_free(lab_menu_view *v)
{
    if (v->screen->release)
        v->screen->release(v->state);
    lab_doc_release(&v->doc);
    free(v->items);
    free(v);
}

void
lab_menu_pop(lab_menu *m)
{
    if (m->depth <= 1) {
        m->quit = true;
        return;
    }
    view_free(m->stack[--m->depth]);
}

void
lab_menu_stale_all(lab_menu *m)
{
    for (int i = 0; i < m->depth; i++)
        m->stack[i]->stale = true;
}

void
lab_menu_status(lab_menu *m, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(m->status, sizeof(m->status), fmt, ap);
    va_end(ap);
}

int
lab_menu_add_item(lab_menu_view *v, const void *ptr, bool chapter)
{
    lab_menu_item *p = realloc(v->items, (v->nitems + 1) * sizeof(*p));

    if (!p)
        return LAB_ENOMEM;
    v->items = p;
    v->items[v->nitems++] = (lab_menu_item){ v->doc.nlines, ptr, chapter };
    return 0;
}

int
lab_menu_add_key_line(lab_doc *d, const lab_menu_screen *s, int width)
{
    lab_buf line = LAB_BUF_INIT, key = LAB_BUF_INIT;
    int rc = 0;

    for (size_t i = 0; i < s->nkeys && rc == 0; i++) {
        if (!s->keys[i].label)
            continue;
        lab_buf_reset(&key);
        lab_buf_printf(&key, "%s %s", s->keys[i].name, _(s->keys[i].label));
        if (line.len && line.len + 2 + key.len > (size_t)width) {
            rc = lab_doc_add(d, LAB_STYLE_DIM, line.buf);
            lab_buf_reset(&line);
        }
        lab_buf_printf(&line, "%s%s", line.len ? "  " : "", key.buf);
    }
    if (rc == 0 && line.len)
        rc = lab_doc_add(d, LAB_STYLE_DIM, line.buf);
    lab_buf_release(&line);
    lab_buf_release(&key);
    return rc;
}

/* --- drawing ------------------------------------------------------------------------- */

static int
body_rows(void)
{
    return LINES > 3 ? LINES - 3 : 1;
}

/* Draws line l on row from column v->left; a '>' in the last column says it goes on past the
 * screen's edge (Right scrolls to it), a '<' in the first that it starts before.  Returns whether
 * it was cut at the edge. */
static bool
draw_line(const lab_menu *m, const lab_menu_view *v, int row, const lab_doc_line *l, bool sel)
{
    size_t i = 0, col = 0, cols = COLS > 0 ? (size_t)COLS : 1;
    const char *hit = v->search[0] ? strstr(l->text, v->search) : NULL;
    size_t hit_len = strlen(v->search);

    i = lab_text_cut(l->text, l->len, v->left); /* scrolled right, by columns */
    /* a line that goes on past the edge keeps the last column for its '>': a wide character
     * (Hangul, Hanzi) drawn into it and then half overwritten made the terminal wrap the '>'
     * onto the next row */
    if (cols > 1 && lab_doc_width(l->text + i, l->len - i) > cols)
        cols--;
    move(row, 0);
    while (i < l->len && col < cols) {
        size_t j = i;
        int s = l->style[i];
        bool in_hit = hit && l->text + i >= hit && l->text + i < hit + hit_len;
        while (j < l->len && l->style[j] == s &&
               (hit && l->text + j >= hit && l->text + j < hit + hit_len) == in_hit)
            j++;
        size_t w = lab_doc_width(l->text + i, j - i);
        if (col + w > cols) { /* cut at the screen edge, on a character boundary */
            j = i + lab_text_cut(l->text + i, j - i, cols - col);
            w = lab_doc_width(l->text + i, j - i);
            if (j == i) /* a wide character that does not fit: the line ends here */
                break;
        }
        attr_t a = style_attr(m, s) | (sel ? A_REVERSE : 0) | (in_hit ? A_STANDOUT : 0);
        attron(a);
        addnstr(l->text + i, (int)(j - i));
        attroff(a);
        col += w;
        i = j;
    }
    if (sel) {
        attron(A_REVERSE);
        for (; col < cols; col++)
            addch(' ');
        attroff(A_REVERSE);
    }
    if (v->left && l->len && cols > 1)
        mvaddch(row, 0, '<' | A_REVERSE);
    if (i < l->len && COLS > 1)
        mvaddch(row, COLS - 1, '>' | A_REVERSE);
    return i < l->len;
}

/* Text on row, cut at the screen's edge with "..." when it is longer (the progress and status
 * lines). */
static void
draw_cut(int row, const char *text)
{
    size_t len = strlen(text);

    if (COLS > 3 && lab_text_width(text, len) > (size_t)COLS) {
        mvaddnstr(row, 0, text, (int)lab_text_cut(text, len, (size_t)COLS - 3));
        addstr("...");
    } else {
        mvaddnstr(row, 0, text, (int)len);
    }
}

static void
ensure_visible(lab_menu_view *v)
{
    size_t rows = (size_t)body_rows();

    if (!v->nitems)
        return;
    size_t line = v->items[v->sel].line;
    if (line < v->top)
        v->top = line > 2 ? line - 2 : 0;
    if (line >= v->top + rows)
        v->top = line - rows + 1;
}

static void
build(lab_menu *m, lab_menu_view *v)
{
    lab_doc_release(&v->doc);
    free(v->items);
    v->items = NULL;
    v->nitems = 0;
    if (v->screen->build(m, v, COLS > 4 ? COLS - 1 : 4) < 0)
        lab_menu_status(m, _("could not lay out this screen"));
    if (v->sel >= v->nitems)
        v->sel = v->nitems ? v->nitems - 1 : 0;
    if (v->top >= v->doc.nlines)
        v->top = v->doc.nlines ? v->doc.nlines - 1 : 0;
    v->stale = false;
    ensure_visible(v);
}

static void
draw(lab_menu *m)
{
    lab_menu_view *v = m->stack[m->depth - 1];
    int rows = body_rows();
    bool cut = false;

    if (v->stale)
        build(m, v);
    erase();
    attron(A_REVERSE | A_BOLD);
    mvhline(0, 0, ' ', COLS);
    mvaddnstr(0, 1, "cudalab", COLS - 1);
    if (COLS > 12)
        mvaddnstr(0, 10, v->title, (int)lab_text_cut(v->title, strlen(v->title), COLS - 11));
    attroff(A_REVERSE | A_BOLD);
    for (int r = 0; r < rows && v->top + (size_t)r < v->doc.nlines; r++) {
        size_t line = v->top + (size_t)r;
        bool sel = v->nitems && v->items[v->sel].line == line;
        cut |= draw_line(m, v, r + 1, &v->doc.lines[line], sel);
    }
    if (m->progress[0]) {
        attron(style_attr(m, LAB_STYLE_WARN));
        draw_cut(LINES - 2, m->progress);
        attroff(style_attr(m, LAB_STYLE_WARN));
    } else if (m->watch_ex) {
        mvaddnstr(LINES - 2, 0, _("watching "), COLS);
        addnstr(m->watch_name, (int)lab_text_cut(m->watch_name, strlen(m->watch_name),
                                                 COLS - (int)lab_text_widths(_("watching "))));
        addnstr(_(": saving the file grades it"), COLS);
    }
    attron(A_REVERSE);
    mvhline(LINES - 1, 0, ' ', COLS);
    draw_cut(LINES - 1, m->status[0] ? m->status
                        : cut        ? _(" ? keys   q back   Right: the rest of the lines marked >")
                                     : _(" ? keys   q back"));
    if (v->doc.nlines > (size_t)rows && COLS > 30 &&
        lab_text_widths(m->status) + 12 < (size_t)COLS) {
        char pos[32];
        snprintf(pos, sizeof(pos), " %zu/%zu ", v->top + 1, v->doc.nlines);
        mvaddnstr(LINES - 1, COLS - (int)strlen(pos), pos, -1);
    }
    attroff(A_REVERSE);
    refresh();
}

/* --- pager keys (every view) -------------------------------------------------- */

static void
scroll_by(lab_menu_view *v, long d)
{
    long max = (long)v->doc.nlines - body_rows();
    long top = (long)v->top + d;

    if (top > max)
        top = max;
    if (top < 0)
        top = 0;
    v->top = (size_t)top;
}

static int
key_down(lab_menu *m, lab_menu_view *v)
{
    (void)m;
    if (v->nitems) {
        if (v->sel + 1 < v->nitems)
            v->sel++;
        ensure_visible(v);
        if (v->sel + 1 == v->nitems)
            scroll_by(v, 1);
    } else {
        scroll_by(v, 1);
    }
    return LAB_MENU_REDRAW;
}

static int
key_up(lab_menu *m, lab_menu_view *v)
{
    (void)m;
    if (v->nitems) {
        if (v->sel > 0)
            v->sel--;
        if (v->sel == 0)
            v->top = 0;
        ensure_visible(v);
    } else {
        scroll_by(v, -1);
    }
    return LAB_MENU_REDRAW;
}

static int
key_page_down(lab_menu *m, lab_menu_view *v)
{
    (void)m;
    scroll_by(v, body_rows() - 1);
    while (v->nitems && v->sel + 1 < v->nitems && v->items[v->sel].line < v->top)
        v->sel++;
    return LAB_MENU_REDRAW;
}

static int
key_page_up(lab_menu *m, lab_menu_view *v)
{
    (void)m;
    scroll_by(v, -(body_rows() - 1));
    while (v->nitems && v->sel > 0 && v->items[v->sel].line >= v->top + (size_t)body_rows())
        v->sel--;
    return LAB_MENU_REDRAW;
}

static int
key_home(lab_menu *m, lab_menu_view *v)
{
    (void)m;
    v->top = 0;
    v->sel = 0;
    return LAB_MENU_REDRAW;
}

static int
key_end(lab_menu *m, lab_menu_view *v)
{
    (void)m;
    scroll_by(v, (long)v->doc.nlines);
    if (v->nitems)
        v->sel = v->nitems - 1;
    return LAB_MENU_REDRAW;
}

#define SIDE_STEP 20

static int
key_right(lab_menu *m, lab_menu_view *v)
{
    size_t widest = 0;

    (void)m;
    for (size_t i = 0; i < v->doc.nlines; i++) {
        size_t w = lab_doc_width(v->doc.lines[i].text, v->doc.lines[i].len);
        widest = w > widest ? w : widest;
    }
    if (v->left + (size_t)COLS < widest)
        v->left += SIDE_STEP;
    return LAB_MENU_REDRAW;
}

static int
key_left(lab_menu *m, lab_menu_view *v)
{
    (void)m;
    v->left = v->left > SIDE_STEP ? v->left - SIDE_STEP : 0;
    return LAB_MENU_REDRAW;
}

static bool
find_from(lab_menu_view *v, size_t from)
{
    for (size_t i = from; i < v->doc.nlines; i++)
        if (strstr(v->doc.lines[i].text, v->search)) {
            v->top = i;
            scroll_by(v, 0);
            /* on a list, the match's item becomes the selection (Enter opens it) */
            for (size_t k = 0; k < v->nitems; k++)
                if (v->items[k].line == i)
                    v->sel = k;
            return true;
        }
    return false;
}

bool
lab_menu_prompt(lab_menu *m, const char *prompt, char *buf, size_t size)
{
    (void)m;
    buf[0] = '\0';
    attron(A_REVERSE);
    mvhline(LINES - 1, 0, ' ', COLS);
    mvaddstr(LINES - 1, 0, prompt);
    attroff(A_REVERSE);
    echo();
    curs_set(1);
    nodelay(stdscr, FALSE);
    getnstr(buf, (int)size - 1);
    nodelay(stdscr, TRUE);
    noecho();
    curs_set(0);
    return buf[0] != '\0';
}

static int
key_search(lab_menu *m, lab_menu_view *v)
{
    char want[sizeof(v->search)];

    if (!lab_menu_prompt(m, "/", want, sizeof(want)))
        return LAB_MENU_REDRAW;
    snprintf(v->search, sizeof(v->search), "%s", want);
    if (!find_from(v, v->top) && !find_from(v, 0))
        lab_menu_status(m, _("not found: %s"), want);
    else
        lab_menu_status(m, _("found '%s'   n next"), want);
    return LAB_MENU_REDRAW;
}

static int
key_next(lab_menu *m, lab_menu_view *v)
{
    if (!v->search[0] || (!find_from(v, v->top + 1) && !find_from(v, 0)))
        lab_menu_status(m, _("no match"));
    return LAB_MENU_REDRAW;
}

static int
key_back(lab_menu *m, lab_menu_view *v)
{
    (void)v;
    lab_menu_pop(m);
    return LAB_MENU_REDRAW;
}

static int
key_quit(lab_menu *m, lab_menu_view *v)
{
    (void)v;
    m->quit = true;
    return 0;
}

static int key_help(lab_menu *m, lab_menu_view *v);

static const lab_menu_key pager_keys[] = {
    { KEY_DOWN, "Down j", N_("next line or item"), key_down, NULL },
    { 'j', NULL, NULL, key_down, NULL },
    { KEY_UP, "Up k", N_("previous line or item"), key_up, NULL },
    { 'k', NULL, NULL, key_up, NULL },
    { KEY_NPAGE, "PgDn Space", N_("next page"), key_page_down, NULL },
    { ' ', NULL, NULL, key_page_down, NULL },
    { KEY_PPAGE, "PgUp b", N_("previous page"), key_page_up, NULL },
    { 'b', NULL, NULL, key_page_up, NULL },
    { KEY_RIGHT, "Right", N_("scroll right (wide tables)"), key_right, NULL },
    { KEY_LEFT, "Left", N_("scroll left"), key_left, NULL },
    { KEY_HOME, "Home", N_("top"), key_home, NULL },
    { KEY_END, "End", N_("bottom"), key_end, NULL },
    { '/', "/", N_("search the text"), key_search, NULL },
    { 'n', "n", N_("next match"), key_next, NULL },
    { '?', "?", N_("these keys"), key_help, NULL },
    { 'q', "q", N_("back (quit on the home screen)"), key_back, NULL },
    { LAB_CTRL('c'), "Ctrl-C", N_("quit the lab (cancels a grading)"), key_quit, NULL },
};

/* --- help: made from the key tables ---------------------------------------------------- */

typedef struct help_state {
    const lab_menu_screen *of;
} help_state;

static void
help_keys(lab_doc *d, const lab_menu_key *keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (keys[i].name)
            lab_doc_addf(d, LAB_STYLE_TEXT, "  %-12s %s", keys[i].name, _(keys[i].help));
}

static int
help_build(lab_menu *m, lab_menu_view *v, int width)
{
    const help_state *h = v->state;

    (void)m;
    (void)width;
    lab_doc_addf(&v->doc, LAB_STYLE_HEADING, _("Keys of the %s screen"), h->of->name);
    help_keys(&v->doc, h->of->keys, h->of->nkeys);
    lab_doc_add(&v->doc, LAB_STYLE_TEXT, "");
    lab_doc_add(&v->doc, LAB_STYLE_HEADING, _("Keys of every screen"));
    help_keys(&v->doc, pager_keys, ARRAY_SIZE(pager_keys));
    return 0;
}

const lab_menu_screen lab_menu_help = { .name = "help", .build = help_build, .release = free };

static int
key_help(lab_menu *m, lab_menu_view *v)
{
    help_state *h;

    if (v->screen == &lab_menu_help || !(h = malloc(sizeof(*h))))
        return 0;
    h->of = v->screen;
    lab_menu_push(m, &lab_menu_help, h, _("keys (q: back)"));
    return LAB_MENU_REDRAW;
}

/* --- keys and events ------------------------------------------------------------------ */

static const lab_menu_key *
find_key(const lab_menu_key *keys, size_t n, int ch)
{
    for (size_t i = 0; i < n; i++)
        if (keys[i].key == ch)
            return &keys[i];
    return NULL;
}

static void
on_key(lab_menu *m, int ch)
{
    lab_menu_view *v = m->stack[m->depth - 1];
    const lab_menu_key *k;
    int flags;

    if (ch == KEY_RESIZE) {
        lab_menu_stale_all(m);
        return;
    }
    m->status[0] = '\0';
    if (v->stale) /* keys act on the text as it is drawn next */
        build(m, v);
    k = find_key(v->screen->keys, v->screen->nkeys, ch);
    if (!k)
        k = find_key(pager_keys, ARRAY_SIZE(pager_keys), ch);
    if (!k) {
        if (ch < 256 && ch >= ' ')
            lab_menu_status(m, _("no key '%c' here: ? shows the keys"), ch);
        return;
    }
    flags = k->fn(m, v);
    if (flags & LAB_MENU_REBUILD)
        lab_menu_stale_all(m);
}

bool
lab_menu_confirm(lab_menu *m, const char *question)
{
    int ch;

    (void)m;
    attron(A_REVERSE | A_BOLD);
    mvhline(LINES - 1, 0, ' ', COLS);
    mvaddnstr(LINES - 1, 0, question, COLS);
    addnstr(" (y/n) ", COLS);
    attroff(A_REVERSE | A_BOLD);
    refresh();
    nodelay(stdscr, FALSE);
    do
        ch = getch();
    while (ch == KEY_RESIZE);
    nodelay(stdscr, TRUE);
    return ch == 'y' || ch == 'Y';
}

int
lab_menu_watch_dir(lab_menu *m, const char *chapter)
{
    char dir[128];
    int wd;

    if (m->nwatch == LAB_MENU_WATCH_DIRS) {
        errno = ENOSPC;
        return -1;
    }
    snprintf(dir, sizeof(dir), "work%s%s", *chapter ? "/" : "", chapter);
    if ((wd = inotify_add_watch(m->inotify_fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)) < 0)
        return -1;
    for (int i = 0; i < m->nwatch; i++)
        if (m->watch_wds[i] == wd)
            return 0;
    m->watch_wds[m->nwatch] = wd;
    snprintf(m->watch_chapters[m->nwatch++], sizeof(m->watch_chapters[0]), "%s", chapter);
    return 0;
}

/* A save in a watched folder: the exercise whose file it is becomes the one followed. */
static void
on_saved(lab_menu *m, const char *chapter, const char *name)
{
    const lab_exercise *ex = lab_work_exercise_of(lab_catalog_of(m->lab), chapter, name);

    if (!ex)
        return;
    m->watch_ex = ex;
    snprintf(m->watch_name, sizeof(m->watch_name), "%s", name);
    m->watch_pending = true;
}

static void
on_watch_event(lab_menu *m)
{
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    ssize_t n = read(m->inotify_fd, buf, sizeof(buf));

    for (ssize_t i = 0; i < n;) {
        const struct inotify_event *e = (const struct inotify_event *)(buf + i);
        i += (ssize_t)(sizeof(*e) + e->len);
        for (int k = 0; k < m->nwatch && e->len && m->watch_ex; k++) {
            const char *chapter = m->watch_chapters[k];
            if (m->watch_wds[k] != e->wd)
                continue;
            if (!*chapter && (e->mask & IN_ISDIR)) /* a chapter folder made in work/ */
                lab_menu_watch_dir(m, e->name);
            else if (*chapter && (e->mask & (IN_CLOSE_WRITE | IN_MOVED_TO)))
                on_saved(m, chapter, e->name);
        }
    }
}

static void
start_pending_watch(lab_menu *m)
{
    lab_buf path = LAB_BUF_INIT;

    if (!m->watch_pending || m->job || !m->watch_ex)
        return;
    m->watch_pending = false;
    lab_menu_follow_exercise(m, m->watch_ex);
    lab_work_path(m->watch_ex, &path);
    if (lab_menu_grade_start(m, m->watch_ex, path.buf) == 0)
        lab_menu_status(m, _("saved: grading %s"), m->watch_ex->id);
    lab_buf_release(&path);
}

static void
loop(lab_menu *m)
{
    while (!m->quit) {
        struct pollfd pfd[3] = {
            { STDIN_FILENO, POLLIN, 0 },
            { lab_menu_job_fd(m), POLLIN, 0 },
            { m->inotify_fd, POLLIN, 0 },
        };
        int ch;

        draw(m);
        if (poll(pfd, 3, m->job ? 250 : -1) < 0 && errno != EINTR)
            break;
        if (pfd[1].revents)
            lab_menu_job_poll(m);
        if (pfd[2].revents)
            on_watch_event(m);
        start_pending_watch(m);
        while (!m->quit && (ch = getch()) != ERR)
            on_key(m, ch);
        if (m->job)
            lab_menu_job_poll(m); /* the elapsed time on the progress line */
    }
}

int
lab_menu_run(lab *l, const lab_menu_opts *opts, lab_err *err)
{
    lab_menu m = { .lab = l, .inotify_fd = -1 };
    lab_buf db = LAB_BUF_INIT;
    lab_err probe_err = LAB_ERR_INIT;
    int rc;

    if ((rc = lab_store_default_path(&db, err)) < 0 ||
        (rc = lab_store_open(db.buf, &m.store, err)) < 0) {
        lab_buf_release(&db);
        return rc;
    }
    lab_buf_release(&db);
    if (lab_device_probe(m.lab, &m.device, &probe_err) < 0)
        m.device = NULL;
    m.inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

    /* the locale is main's (lab_i18n_start): set again here it would undo its choices */
    tcgetattr(STDIN_FILENO, &saved_tty);
    if (!initscr()) {
        lab_store_close(m.store);
        return lab_err_set(err, LAB_EIO, _("cannot start the terminal screen (TERM=%s)"),
                           getenv("TERM"));
    }
    save_reset_sequence();
    install_signals();
    raw();
    noecho();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(50);
    curs_set(0);
    init_colors(&m, opts->color);

    if (lab_menu_push(&m, &lab_menu_home, NULL, "home") == 0)
        loop(&m);

    lab_menu_job_stop(&m);
    endwin();
    while (m.depth > 0)
        view_free(m.stack[--m.depth]);
    if (m.inotify_fd >= 0)
        close(m.inotify_fd);
    lab_store_close(m.store);
    return 0;
}
