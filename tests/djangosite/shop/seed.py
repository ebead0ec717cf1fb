"""Fixed seed data: the same rows, ids and bytes on every run (no randomness, no clock), so tests and
task suites can state expected answers. Derived by arithmetic from short lists to look varied."""

from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.db import transaction

from .models import Category, Customer, Order, OrderLine, Product, Tag

ADMIN_USERNAME = "admin"
ADMIN_PASSWORD = "webchallenger-admin"

TAGS = ["bulky", "clearance", "eco", "fragile", "gift", "new", "priority", "returning", "vip", "wholesale"]

# (name, parent name or None)
CATEGORIES = [
    ("Electronics", None), ("Audio", "Electronics"), ("Computers", "Electronics"),
    ("Home", None), ("Kitchen", "Home"), ("Garden", None), ("Books", None), ("Toys", None),
]

# (name, category): 40 products
PRODUCTS = [
    ("Wireless Mouse", "Computers"), ("Mechanical Keyboard", "Computers"), ("USB-C Hub", "Computers"),
    ("27-inch Monitor", "Computers"), ("Laptop Stand", "Computers"), ("Webcam HD", "Computers"),
    ("Bluetooth Speaker", "Audio"), ("Noise-Cancelling Headphones", "Audio"), ("Earbuds", "Audio"),
    ("Turntable", "Audio"), ("Soundbar", "Audio"), ("Smart Plug", "Electronics"),
    ("Power Bank", "Electronics"), ("E-Reader", "Electronics"), ("Desk Lamp", "Home"),
    ("Wool Blanket", "Home"), ("Scented Candle", "Home"), ("Wall Clock", "Home"),
    ("Throw Pillow", "Home"), ("Chef's Knife", "Kitchen"), ("Cast Iron Skillet", "Kitchen"),
    ("French Press", "Kitchen"), ("Espresso Cups", "Kitchen"), ("Cutting Board", "Kitchen"),
    ("Stand Mixer", "Kitchen"), ("Garden Hose", "Garden"), ("Pruning Shears", "Garden"),
    ("Seed Starter Kit", "Garden"), ("Watering Can", "Garden"), ("Bird Feeder", "Garden"),
    ("Cookbook: Simple Suppers", "Books"), ("Field Guide to Birds", "Books"), ("Mystery Novel", "Books"),
    ("Atlas of the World", "Books"), ("Poetry Collection", "Books"), ("Wooden Train Set", "Toys"),
    ("Puzzle 1000 Pieces", "Toys"), ("Building Blocks", "Toys"), ("Plush Bear", "Toys"), ("Kite", "Toys"),
]

FIRST_NAMES = [
    "Alice", "Bruno", "Chiara", "Daniel", "Elena", "Felix", "Greta", "Hugo", "Ines", "Jonas",
    "Klara", "Luca", "Marta", "Nico", "Olga", "Pablo", "Quentin", "Rosa", "Sven", "Tessa",
    "Umberto", "Vera", "Walter", "Xenia", "Yann", "Zoe", "Amelie", "Bastien", "Carmen", "Dario",
]
LAST_NAMES = [
    "Martin", "Schmidt", "Rossi", "Garcia", "Smith", "Bernard", "Weber", "Romano", "Lopez", "Jones",
    "Dubois", "Fischer", "Ricci", "Moreno", "Taylor",
]
CITIES = {"FR": ["Paris", "Lyon"], "DE": ["Berlin", "Hamburg"], "IT": ["Milan", "Turin"],
          "ES": ["Madrid", "Seville"], "GB": ["London", "Leeds"]}
COUNTRIES = ["FR", "DE", "IT", "ES", "GB"]

ORDER_STATUSES = ["pending", "paid", "shipped", "delivered", "delivered", "cancelled"]
SHIPPINGS = ["standard", "standard", "express", "pickup"]


@transaction.atomic
def seed() -> None:
    User.objects.create(
        username=ADMIN_USERNAME, email="admin@example.com", first_name="Ada", last_name="Admin",
        is_staff=True, is_superuser=True, date_joined=datetime(2022, 1, 1, tzinfo=timezone.utc),
        # A fixed salt of full entropy (22 alphanumerics): Django would rehash a weaker one on login, a write.
        password=make_password(ADMIN_PASSWORD, salt="WebChallengerSeedSalt0"),
    )
    tags = {name: Tag.objects.create(name=name) for name in TAGS}
    tag_list = [tags[name] for name in TAGS]

    categories: dict[str, Category] = {}
    for name, parent in CATEGORIES:
        categories[name] = Category.objects.create(
            name=name, slug=name.lower(), parent=categories.get(parent) if parent else None,
            description=f"Everything {name.lower()}.",
        )

    products = []
    for i, (name, category) in enumerate(PRODUCTS):
        status = "discontinued" if i % 7 == 6 else "draft" if i % 11 == 10 else "active"
        product = Product.objects.create(
            name=name, sku=f"SKU-{100 + i * 7}", category=categories[category],
            price=Decimal(5 + (i * 37) % 200) + Decimal("0.99"), stock=(i * 13) % 60, status=status,
            released_on=date(2023, 1, 9) + timedelta(days=i * 23), description=f"{name}, from the {category} range.",
        )
        product.tags.set([tag_list[i % 10]] + ([tag_list[(i * 3 + 1) % 10]] if i % 3 == 0 else []))
        products.append(product)

    customers = []
    for i, first in enumerate(FIRST_NAMES):
        last = LAST_NAMES[(i * 4) % len(LAST_NAMES)]
        country = COUNTRIES[i % 5]
        customer = Customer.objects.create(
            first_name=first, last_name=last, email=f"{first}.{last}@example.com".lower(),
            phone=f"+33 1 {40 + i:02d} {10 + i * 3:02d} {(i * 17) % 100:02d}" if i % 4 else "",
            city=CITIES[country][i % 2], country=country,
            tier="gold" if i % 5 == 0 else "silver" if i % 3 == 0 else "bronze",
            joined_on=date(2022, 2, 1) + timedelta(days=i * 29), is_active=i % 9 != 8,
            notes="Prefers phone contact." if i % 6 == 1 else "",
        )
        if i % 4 == 0:
            customer.tags.set([tags["vip"] if i % 8 == 0 else tags["returning"]])
        customers.append(customer)

    start = datetime(2024, 1, 3, 9, 0, tzinfo=timezone.utc)
    for i in range(60):
        placed = start + timedelta(days=i * 6, hours=(i * 5) % 9, minutes=(i * 13) % 60)
        status = ORDER_STATUSES[i % 6]
        order = Order.objects.create(
            number=f"SO-{1001 + i}", customer=customers[(i * 7) % 30], status=status, placed_at=placed,
            ship_by=None if status == "cancelled" else placed.date() + timedelta(days=3 + i % 4),
            shipping=SHIPPINGS[i % 4], note="Leave at the front desk." if i % 10 == 3 else "",
        )
        if i % 5 == 0:
            order.tags.set([tags["priority"]] + ([tags["gift"]] if i % 10 == 0 else []))
        for k in range(1 + i % 3):
            product = products[(i * 11 + k * 17) % 40]
            OrderLine.objects.create(order=order, product=product, quantity=1 + (i + k) % 4, unit_price=product.price)
