-- Congress of Vienna: issue markers on the Diplomacy Display. The Negotiation Table sits in
-- the middle; each power's National Track runs 1-6 from it, with the power's Seat at 7.
-- A card moves an issue toward the player's Seat one space per point: down another
-- power's track, across the Table (one step) and up the player's own (16.2: two points
-- take an issue from Austria 2 to the Table, three to France 1). A move that reaches 7 or
-- beyond ends on the Seat, but how far beyond is kept: a debate starts from there (16.2,
-- Talleyrand "9 spaces beyond the Seat"). An issue that ends on a Seat without a debate
-- is secured for the rest of the turn.

local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local once = include("rules/once.lua")

local display = {}

display.SEAT = 7

-- The power and number of each track space of the Diplomacy Display ("AU-3"), read once a
-- game: every rule and bot asks where issues stand, again and again.
local track_spaces = {}

-- An issue marker's name, and its issue (the kind of issue: "lib_abs", "poland").
function display.issue_name(ctx, piece)
  return ctx.data.pieces[piece].name
end

display.issue_of = once.per_key(function(ctx, piece)
  return ctx.data.pieces[piece].props.issue
end)

-- Where an issue marker stands: "display" (waiting on the Diplomacy Display), "table",
-- or a power and a space number 1-7; nil and the place when it is elsewhere (a box).
function display.where(ctx, piece)
  local place, space = ctx:space_of(piece)
  if place ~= "diplomacy" then
    return nil, place, space
  end
  if space == "display" or space == "table" then
    return space
  end
  local read = track_spaces[space]
  if read == nil then
    local power, n = string.match(space, "^(%a%a)%-(%d)$")
    read = { power, tonumber(n) }
    track_spaces[space] = read
  end
  return "track", read[1], read[2]
end

-- The issue's position seen from `power`: 0 on the Table, n on its own track, -n on
-- another power's; the notional position past the Seat if a move this play left it there.
function display.position(ctx, piece, power)
  local beyond = (ctx.vars.diplomacy or {}).beyond
  if beyond and beyond.piece == piece then
    return beyond.power == power and beyond.n or -beyond.n
  end
  local kind, owner, n = display.where(ctx, piece)
  if kind == "table" then
    return 0
  elseif kind == "track" then
    return owner == power and n or -n
  end
  return nil
end

-- Words for a position: "the Negotiation Table", "Austria 3", "Russia's Seat".
function display.describe(ctx, power, n)
  if n == 0 then
    return "the Negotiation Table"
  elseif n >= display.SEAT then
    return powers.name(ctx, power) .. "'s Seat"
  end
  return string.format("%s %d", powers.name(ctx, power), n)
end

function display.describe_piece(ctx, piece)
  local kind, owner, n = display.where(ctx, piece)
  if kind == "track" then
    return display.describe(ctx, owner, n)
  elseif kind == "table" then
    return "the Negotiation Table"
  elseif kind == "display" then
    return "the Diplomacy Display"
  end
  return tostring(owner)
end

-- The track (power) an issue sits on, or nil.
function display.track_of(ctx, piece)
  local kind, owner = display.where(ctx, piece)
  if kind == "track" then
    return owner
  end
  return nil
end

-- Where an issue ends when `power` moves it `steps` toward its Seat: the power whose
-- track it lands on (nil: the Table) and the space (past 7 kept as is). `from` is the
-- issue's position seen from `power` if the caller has it.
function display.after_move(ctx, piece, power, steps, from)
  from = from or display.position(ctx, piece, power)
  local to = from + math.max(steps, 0)
  if to > 0 then
    return power, to
  elseif to == 0 then
    return nil, 0
  end
  local kind, owner = display.where(ctx, piece)
  local beyond = (ctx.vars.diplomacy or {}).beyond
  if beyond and beyond.piece == piece then
    owner = beyond.power
  elseif kind ~= "track" then
    owner = power
  end
  return owner, -to
end

-- Puts an issue on a power's track at n (7 or more: its Seat), or on the Table (power nil).
-- Returns the words for where it now stands.
function display.put(ctx, piece, power, n)
  if power == nil or n == 0 then
    ctx:place(piece, "diplomacy", "table")
    return "the Negotiation Table"
  end
  local space = math.min(n, display.SEAT)
  ctx:place(piece, "diplomacy", string.format("%s-%d", power, space))
  if n > display.SEAT then
    return string.format("%s (%d, beyond the Seat)", display.describe(ctx, power, space), n)
  end
  return display.describe(ctx, power, space)
end

-- The issues that can be negotiated now: on the Table or a National Track, not secured.
-- (Asked for every issue of every play: where each stands is read here directly, as
-- display.where reads it.)
function display.negotiable(ctx)
  local secured = ctx.vars.secured or {}
  local list = {}
  for _, piece in ipairs(util.pieces_of_kind(ctx, "issue")) do
    if not secured[piece] then
      local place, space = ctx:space_of(piece)
      if place == "diplomacy" and space ~= "display" then
        list[#list + 1] = piece
      end
    end
  end
  return list
end

-- How many issues stand on each power's National Track (spaces 1 to the Seat).
function display.counts(ctx)
  local counts = {}
  for _, power in ipairs(powers.CLOCKWISE) do
    counts[power] = 0
  end
  for _, piece in ipairs(util.pieces_of_kind(ctx, "issue")) do
    local owner = display.track_of(ctx, piece)
    if owner then
      counts[owner] = counts[owner] + 1
    end
  end
  return counts
end

-- Every issue marker waiting on the Diplomacy Display, in the data's order.
function display.all_waiting(ctx)
  return util.filter(util.pieces_of_kind(ctx, "issue"), function(piece)
    return display.where(ctx, piece) == "display"
  end)
end

--- The markers of issue `issue` ("mil_op_us"), in the data's order, wherever they are.
local function markers_of(ctx, issue)
  return util.filter(util.pieces_of_kind(ctx, "issue"), function(piece)
    return display.issue_of(ctx, piece) == issue
  end)
end

-- The name of issue `issue` as its markers carry it ("US Military Operation"), whether or
-- not one waits.
function display.issue_words(ctx, issue)
  local piece = markers_of(ctx, issue)[1]
  if piece == nil then
    return issue
  end
  return ctx.data.pieces[piece].name
end

-- The first issue marker of kind `issue` still waiting on the Diplomacy Display, or nil.
function display.waiting(ctx, issue)
  for _, piece in ipairs(markers_of(ctx, issue)) do
    if display.where(ctx, piece) == "display" then
      return piece
    end
  end
  return nil
end

return display
