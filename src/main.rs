fn main() {
    let b = chess::Board::default();
    println!("{}", chess::MoveGen::new_legal(&b).len());
}
