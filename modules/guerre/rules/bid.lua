-- La Guerre de l'Empereur: the Country Representation Bid (3.1, 3.5). Every player bids VP
-- in secret, all at once; the highest bidder picks the power he will play, then the next,
-- ties broken by a die; each power's VP start at 100 less its player's bid. A player is
-- known by the seat he bid from until he picks: the players then sit at their powers. The
-- bid and each pick are decisions the game's sequence (rules/main.lua) calls in turn.

local ask = include("rules/ask.lua")

local bid = {}

-- `seats` grouped by `key(seat)`, the highest key first; each group in `seats`' order.
local function ranked(seats, key)
  local groups, keys = {}, {}
  for _, seat in ipairs(seats) do
    local k = key(seat)
    if not groups[k] then
      groups[k] = {}
      keys[#keys + 1] = k
    end
    table.insert(groups[k], seat)
  end
  table.sort(keys, function(a, b) return a > b end)
  local list = {}
  for i, k in ipairs(keys) do
    list[i] = groups[k]
  end
  return list
end

-- `seats` ordered by `key(seat)`, the highest first; the seats of an equal key ordered
-- among themselves by bid.by_dice (`sides`, `reason`).
local function ties_by_dice(ctx, seats, key, sides, reason)
  local order = {}
  for _, group in ipairs(ranked(seats, key)) do
    for _, seat in ipairs(bid.by_dice(ctx, group, sides, reason)) do
      order[#order + 1] = seat
    end
  end
  return order
end

--- `seats` ordered by a die each (`sides`, rolled for `reason(seat)`), the highest first;
--- seats still tied roll again among themselves. One seat rolls nothing.
function bid.by_dice(ctx, seats, sides, reason)
  if #seats <= 1 then
    return { table.unpack(seats) }
  end
  local rolls = {}
  for _, seat in ipairs(seats) do
    rolls[seat] = ctx:roll(sides, reason(seat))
  end
  return ties_by_dice(ctx, seats, function(seat) return rolls[seat] end, sides, reason)
end

--- `seats` in the order of their bids, highest first, each group of equal bids ordered by
--- a die each (rolled again among those still tied).
function bid.order(ctx, bids, seats)
  local tied = function(seat)
    return "the tied bid at " .. ctx.data.seats[seat].name .. "'s place"
  end
  return ties_by_dice(ctx, seats, function(seat) return bids[seat] end, 6, tied)
end

bid.states = {}

-- The bid: each player's, in secret, all at once.
local bidding = {}
bid.states.bid = bidding

function bidding.prompt(ctx)
  local asks = {}
  for _, seat in ipairs(ctx.vars.pcs) do
    asks[#asks + 1] = { seat = seat, actions = { { name = "bid", min = 0, max = 100, label = "Bid VP for the first pick" } } }
  end
  return { text = "3.1 Country Representation Bid: each player bids VP in secret", asks = asks }
end

function bidding.reveal(ctx, choices)
  local bids = {}
  local words = {}
  for _, seat in ipairs(ctx.vars.pcs) do
    bids[seat] = choices[seat].arg
    words[#words + 1] = string.format("%s's place %d", ctx.data.seats[seat].name, bids[seat])
  end
  ctx:log("The bids: " .. table.concat(words, ", ") .. ".")
  local order = bid.order(ctx, bids, ctx.vars.pcs)
  ctx.vars.bids = bids
  ctx.vars.pick_order = order
  ctx.vars.played_by = {}
  ctx:pop()
end

-- A pick (the `n`th, in bid order): the player takes a power not yet taken, and hands it
-- back.
local pick = {}
bid.states.pick = pick

function pick.prompt(ctx)
  local bidder = ctx.vars.pick_order[ctx.locals.n]
  local actions = {}
  for _, power in ipairs(ctx.vars.pcs) do
    if not ctx.vars.played_by[power] then
      -- The label names only the power taken: the seat answering is still a place at the
      -- table (the log's heading names it), not the power it will play.
      actions[#actions + 1] = { name = "pick", arg = power, label = "Pick " .. ctx.data.seats[power].name }
    end
  end
  return {
    seat = bidder,
    text = string.format("3.1 Pick %d: the player who bid %d at %s's place picks a power",
      ctx.locals.n, ctx.vars.bids[bidder], ctx.data.seats[bidder].name),
    actions = actions,
  }
end

pick.pick = ask.given

--- The `n`th pick made: the player sits at `power`, with 100 VP less his bid (3.5).
function bid.picked(ctx, power, n)
  local bidder = ctx.vars.pick_order[n]
  local paid = ctx.vars.bids[bidder]
  ctx.vars.played_by[power] = bidder
  ctx:set_counter("vp." .. power, 100 - paid)
  ctx:log(string.format("The player who bid %d at %s's place plays %s: %d VP (3.5).",
    paid, ctx.data.seats[bidder].name, ctx.data.seats[power].name, 100 - paid))
end

--- Every power has its player; each takes his initial money from the bank, as his Player
--- Mat prints it (3.2; owner data: the mats are not in the rulebook).
function bid.initial_money(ctx)
  ctx:log("Every power has its player; each sits at the power he picked.")
  local money = {}
  for _, pc in ipairs(ctx.vars.pcs) do
    local gold = ctx.data.tables.starting_gold[pc]
    ctx:set_counter("gold." .. pc, gold)
    money[#money + 1] = string.format("%s %d", ctx.data.seats[pc].name, gold)
  end
  ctx:log("Initial money from the bank (3.2, the Player Mats): " .. table.concat(money, ", ") .. " gold.")
end

return bid
